"""The engine: rules as data, the game's state machine, dice, records, notation, fairness, errors."""
