"""What each LED colour means, in words, and the way back from a colour the board drew to its
role: the host's (bgboard play says the LEDs in words, the browser view draws them). The
colours themselves are bgwire's, the board's; a new role is a colour there and a name
here.
"""

from bgwire import DICE, EXTRA, HIT, MISSING, ORIGIN, TARGET, WRONG

# (name, colour) in the order a colour shared by two roles is read (REFUSED is WRONG's red).
ROLES = (("origin", ORIGIN), ("may go", TARGET), ("wrong", WRONG), ("missing", MISSING),
         ("extra", EXTRA), ("hit", HIT), ("dice", DICE))


def dimmed(rgb, brightness):
    """A colour as the board draws it at brightness 0..255 (board.leds Renderer.colour)."""
    return (rgb[0] * brightness // 255, rgb[1] * brightness // 255,
            rgb[2] * brightness // 255)


def role_at(rgb, brightness):
    """The role whose colour the board draws as rgb (r, g, b) at that brightness, or None."""
    rgb = tuple(rgb)
    for name, colour in ROLES:
        if dimmed(colour, brightness) == rgb:
            return name
    return None
