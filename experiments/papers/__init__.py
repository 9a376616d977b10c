"""What the source papers state and where a run departs from it: the Episodex paper's
protocol and figures, the Hangman paper's SCT settings, and the real memory libraries
beside cogarch's re-implementations of the papers' baselines."""
