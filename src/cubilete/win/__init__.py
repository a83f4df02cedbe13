"""Playing to win: score distributions, target play, win chances and the win bot."""
