"""The statistics behind every ranked number: a metric's value and 95% interval over items in
clusters, failed trials counted, and the tests that compare two agents (paired where they share
items, Holm-corrected over a column). The run report and the leaderboard both read them."""
