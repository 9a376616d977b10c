"""ALFWorld: a grounded household task played on ALFWorld's own engine."""
