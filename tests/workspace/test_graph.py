from workspace import TransitionGraph


def test_import() -> None:
    assert TransitionGraph
