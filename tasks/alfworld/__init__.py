"""ALFWorld (Shridhar et al., ICLR 2021): household games on ALFWorld's own engine, played as a
curriculum by one agent whose memory carries from game to game.

Games are generated from what the ``alfworld`` wheel ships (or read from the official
download), checked by the planner in a child process and cached, and played in engine processes
of their own (``remote.py``); the engine itself is only imported in those child processes and
where a game is made (``pip install 'cogarch[alfworld]'``).
"""
