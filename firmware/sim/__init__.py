"""Simulated hardware for tests and the virtual board."""
