"""Musashino-bana (武蔵野花) as plain Python: no Django, no database, no translated text.

One job per module: ``deck`` (the 48 cards), ``dekiyaku`` (the dekiyaku as data), ``options``
(the house rules), ``formation`` (which dekiyaku a pile forms), ``storm`` (the Storm and Sun
rules), ``round_input`` (checks of a round's input), ``payments`` (who pays whom after a
round), ``scoring`` (one round), ``settlement`` (a game of several rounds) and ``dealing``.

Citations name ``docs/rules/musashino-bana.md``, the copy of the texts the engine implements:
"musashino-bana.md l.N" is line N of the FudaWiki page (its Part 1), "s.N" a section of its
Part 2, M1–M17 the ambiguities (the option codes of the guides) and MB-1…MB-10 the worked
examples. "FW-MB" is the FudaWiki page, as in that file's list of sources.
"""
