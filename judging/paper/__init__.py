"""The referee's paper: recording sheets (:mod:`~judging.paper.recording_sheet`, filled in
from matches by :mod:`~judging.paper.match_sheets`) and the touch-judgment matrix
(:mod:`~judging.paper.touch_matrix`).  Drawn with the toolkit of :mod:`common.pdf`."""
