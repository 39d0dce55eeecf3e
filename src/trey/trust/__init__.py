"""What a regulator relies on: compliance profiles and checks, certificates, their signatures (JSON and PAdES) and
their verification."""
