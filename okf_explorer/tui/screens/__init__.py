"""The app's screens: the explorer and the source-error screen."""
