"""The widgets of the terminal game, one file per area of the screen."""
