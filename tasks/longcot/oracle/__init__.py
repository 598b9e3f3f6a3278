"""LongCoT's oracle: the reference answers ``builtin/oracle`` writes and the seeded guesses of ``builtin/random``.

``render`` writes an answer the way a model would; ``solvers`` solves the templates whose reference is not in
the data; ``proof_game`` (with ``bound``, ``paths`` and ``search``) reconstructs a legal game for the chess
template ``reconstruct_moves``. Nothing here decides a score: that is ``verify`` (strict) and ``official``.
"""
