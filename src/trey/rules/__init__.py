"""The rules of the game above the pays: how an Ante & Play round is resolved (situations, resolutions, the outcome
names). Stated once, used by the engine, settlement and the floor documents."""
