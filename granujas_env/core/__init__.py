"""Machinery shared by every game of the project (it imports no game)."""
