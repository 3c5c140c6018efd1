"""Dataset export: JSONL records, images, splits, retrieval candidates, datasheet; and import back.

See docs/export.md for the record schema and the files an export writes.
"""
