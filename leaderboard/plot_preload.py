"""Preloaded by the plot workers' fork server (see :func:`leaderboard.site_plots.plot_context`).

Importing this module builds the process's shared plot canvas, so matplotlib is imported
and its fonts are loaded once, in the server, and every worker forked from it starts warm.
"""

from leaderboard.plots import canvas

canvas()
