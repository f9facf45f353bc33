"""The explorer's state: navigation, history, index loading, slices."""
