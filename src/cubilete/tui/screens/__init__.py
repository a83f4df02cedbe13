"""The screens of the terminal game: setup, game, end of game, scorekeeper, and small dialogs."""
