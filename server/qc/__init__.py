"""Post-dialog quality control: inclusion rules, rule flags, TextBlob scores and a verdict."""
