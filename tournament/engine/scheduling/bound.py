"""The lower bound on the number of slots of a division's group games.

Pure: standard library only.  The bound is layout-free: for the pinned
layouts ``Plan.gap`` includes the price of pinning.
"""

from __future__ import annotations


def _ceil_div(a: int, b: int) -> int:
    return -(-a // b)


def window_bound(matches: int, per_slot: int, per_two_slots: int) -> int:
    """Slots needed for ``games`` games when one slot holds at most
    ``per_slot`` of them and two consecutive slots at most ``per_two_slots``.

    With ``x_t`` the games in slot ``t`` (``t = 1..T``), summing
    ``x_t + x_{t+1} <= K`` over the ``T - 1`` adjacent pairs counts every game
    twice except those of the first and last slot:
    ``2·games - x_1 - x_T <= (T - 1)·K``.  With ``T >= 2``,
    ``x_1 + x_T <= min(2·per_slot, games)``, hence
    ``T >= 1 + ceil((2·games - min(2·per_slot, games)) / K)``.  ``T = 1`` is
    only possible when ``games <= per_slot``.  The classic pairing argument
    (``ceil(T/2)`` windows of two slots) gives ``T >= 2·ceil(games/K) - 1``;
    both are valid, the larger is returned.
    """
    if matches <= 0:
        return 0
    if matches <= per_slot:
        return 1
    edge = 1 + _ceil_div(2 * matches - min(2 * per_slot, matches), per_two_slots)
    pairing = 2 * _ceil_div(matches, per_two_slots) - 1
    return max(2, edge, pairing)


def _check_input(group_sizes: list[int], courts: int) -> list[int]:
    if isinstance(courts, bool) or not isinstance(courts, int):
        raise ValueError(f"courts must be a number of courts (int), got {courts!r}")
    if courts < 1:
        raise ValueError(f"at least one court is needed, got {courts}")
    sizes = list(group_sizes)
    for n in sizes:
        if isinstance(n, bool) or not isinstance(n, int) or n < 2:
            raise ValueError(f"a group needs at least 2 teams, got {n!r}")
    return sizes


def _global_window(matches: list[int], caps: list[int], c: int) -> int:
    """The window bound over every subset ``S`` of the groups (a subset's games
    alone need that many slots).

    For ``S`` with ``sum k = W >= 2c`` the window allows ``2c`` games per two
    slots whatever ``S`` is, so the full set is the strongest; for ``W < 2c``
    the bound grows with the games of ``S``, so a knapsack finds the most
    games for each exact ``W`` (adding a group never lowers the bound).
    """
    total_k = sum(caps)
    bound = window_bound(sum(matches), min(c, total_k), min(2 * c, total_k))
    cap = min(2 * c - 1, total_k)
    best = [-1] * (cap + 1)
    best[0] = 0
    for m, k in zip(matches, caps, strict=True):
        for w in range(cap, k - 1, -1):
            if best[w - k] >= 0 and best[w - k] + m > best[w]:
                best[w] = best[w - k] + m
    for w in range(1, cap + 1):
        if best[w] > 0:
            bound = max(bound, window_bound(best[w], min(c, w), w))
    return bound


def lower_bound(group_sizes: list[int], courts: int, rest: bool = False) -> int:
    """Smallest number of slots any schedule of these groups can use.

    In: ``group_sizes``, the number of teams of each group (each >= 2);
    ``courts``, the number of courts (>= 1) open to all groups; ``rest``, the
    rest rule (no team plays in two consecutive slots).  Out: a number of
    slots (0 when there is no group).  Raises ``ValueError`` for a group of
    fewer than 2 teams or fewer than 1 court.

    The bounds are those of ``docs/rules/scheduling-standings-seeding.md``,
    section 2.2.  Group ``i`` has ``n_i`` teams, ``M_i = n_i(n_i-1)/2``
    games and can play at most ``k_i = n_i // 2`` games at once; ``c``
    courts.  Without rest the bound is the largest of:

    * **court capacity** ``ceil(sum M_i / c)``: one game per court per slot;
    * **rounds** ``n_i - 1`` (even ``n_i``) or ``n_i`` (odd): each team plays
      ``n_i - 1`` games, one per slot; for odd ``n_i`` a slot holds at most
      ``(n_i - 1)/2`` games, so ``M_i / ((n_i-1)/2) = n_i`` slots (the
      chromatic index of ``K_n``);
    * **group capacity** ``ceil(M_i / min(k_i, c))`` (never larger than the
      two above, kept for completeness).

    Without rest this bound is always reached (section 2.2, checked in
    section 2.4), and the ``"shared"`` layout reaches it.

    With ``rest`` these also hold:

    * **per team** ``2(n_i - 1) - 1``: ``n_i - 1`` games with an idle slot
      between any two (section 2.2, ``(n-1) + (n-2)·r`` with ``r = 1``);
    * **group window**: two consecutive slots hold at most ``k_i`` games of
      group ``i`` (a team cannot be in both), and one slot at most
      ``min(k_i, c)``; see :func:`window_bound` for the count; this gives
      5 slots for a 3-team group (section 2.3);
    * **global window**: the same for any set ``S`` of groups together, with
      ``min(2c, sum_S k_i)`` games per two slots and ``min(c, sum_S k_i)`` per
      slot;
    * **one court, 4 teams**: with a single court a 4-team group needs 8
      slots (section 2.3): two of its games in adjacent slots must be
      disjoint, the only disjoint pairs are the 3 complementary pairs, so its
      6 games form at least 3 runs separated by at least 2 other slots.  This
      still holds when other groups share the court (they only fill the
      separators).

    With rest the bound can be loose (section 2.4: 3 groups of 4 on 3 courts
    need 7, the bound is 6).
    """
    sizes = _check_input(group_sizes, courts)
    if not sizes:
        return 0
    c = courts
    matches = [n * (n - 1) // 2 for n in sizes]
    caps = [n // 2 for n in sizes]
    bound = _ceil_div(sum(matches), c)
    for n, m, k in zip(sizes, matches, caps, strict=True):
        bound = max(bound, n - 1 if n % 2 == 0 else n, _ceil_div(m, min(k, c)))
    if not rest:
        return bound
    for n, m, k in zip(sizes, matches, caps, strict=True):
        bound = max(bound, 2 * (n - 1) - 1, window_bound(m, min(k, c), min(k, 2 * c)))
        if c == 1 and n == 4:
            bound = max(bound, 8)
    return max(bound, _global_window(matches, caps, c))
