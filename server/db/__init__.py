"""Relational storage: the durable record of stimuli, workers, dialogs and their turns."""
