"""The researcher's dashboard: authentication, live operations, review, charts and reports."""
