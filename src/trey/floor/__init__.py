"""What the casino floor uses: the payout drill's chosen hands (the dealer sheet's rows are in
:mod:`trey.documents.dealer_view`)."""
