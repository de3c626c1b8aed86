"""Sanjô Dôsai (三条道才) and the Dôsai Karuta card table as plain Python: no Django, no database.

One job per module: ``facts`` (the fixed facts: subjects, efuda in play, houses, rows),
``options`` (the house rules D2–D18), ``hand`` (the state of a hand), ``calls`` (one call and
its payments), ``settlement`` (the end of a hand and the ledgers) and ``cards`` (the card
table, one edition per manufacturer's set).

Citations name ``docs/rules/sanjo-dosai.md``, the copy of the texts the engine implements:
"sanjo-dosai.md l.N" is line N of the Andy's Playing Cards page (its Part 1), "s.N" a section
of its Part 2, D1–D18 the ambiguities (the option codes of the guides) and D-1…D-11 the
worked examples. Tags as in that file: [TEAM-SRC] stated by the page, [ASSUMED] a reading
chosen here.
"""
