"""The judge audit: how often the judge behind a judged metric accepts wrong answers and
rejects right ones, and how far a second judge agrees with it (see the guide's "The judge
audit"). ``probes`` makes the answers, ``audit`` judges them and writes ``judge_audit.json``,
``section`` shows it in a report."""
