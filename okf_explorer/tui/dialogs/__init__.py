"""The explorer's modal dialogs."""
