"""Affective visual dialog platform: live collection, QC, export and evaluation."""

__version__ = "0.1.0"
