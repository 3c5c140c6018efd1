"""Stimuli: import and normalisation, and the pool that leases them to dialogs."""
