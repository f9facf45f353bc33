"""The app's screens: the explorer, the source-error screen and the help dialog."""
