"""Playing: bots, the coach, reviews, the sheet seen from the dice, the scorekeeper of real dice."""
