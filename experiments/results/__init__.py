"""A run's files on disk: trial files written and read back (older versions migrated),
the results folder and the names of its folders, and which task code a reader of
results may load."""
