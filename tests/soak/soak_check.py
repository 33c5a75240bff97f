# board_support.check_autoplay for soak_games, in a module of its own: importing
# board_support (its other helpers) took 2.5 KB of that soak's heap, and it ran out at 172K
# with the sensing's learning (#16). The soaks that need board_support anyway keep its copy:
# importing this module as well tipped test_write_ahead_soak over its 200K.


def check_autoplay(ap, what):
    """The board committed exactly the plays the simulated hands made (sim.autoplay)."""
    assert not ap.mismatches, "%s: board committed other plays: %r" % (what, ap.mismatches[:3])
    assert ap.stuck == 0, "%s: board disagreed with the hands %d times" % (what, ap.stuck)
