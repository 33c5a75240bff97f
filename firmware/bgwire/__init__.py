"""bgwire: the contract between the board and the host, one copy for both ends.

docs/protocol.md says it in words; these modules say it in code, and tests/host
test_protocol_doc.py fails when the two disagree. Runs unchanged on MicroPython (the board,
the virtual board) and CPython (the host, packaged like bgcore); imports nothing of ours.

    bgwire            PROTOCOL (the version both ends speak), MAX_LINE (bytes a line may
                      have); button bits, LED roles' colours, point numbering (below)
    bgwire.commands   the host's commands, their arguments and checks (parse)
    bgwire.events     the journaled events and their fields (the host checks them)
    bgwire.roles      the LED roles' names, and a drawn colour read back to its role
    bgwire.lines      the line reader: bytes in, bounded lines out
    bgwire.sim        the virtual board's sim lines, and its process's exit codes

What the board shows and what its hands press, here in the package itself (the board loads
it whatever it imports: a module of their own cost it 0.2 KB more): button bits, LED roles'
colours, and the numbering of points both ends draw and light.

Buttons: board.hw.Buttons.pressed() returns a mask of these bits (drivers/rp2_buttons.py
reads them from the pins hardware/pinmap.json names, the virtual board from sim lines).

LED colours: (red, green, blue) at full brightness; the board draws each at its brightness
(hardware/pinmap.json leds.brightness_default) as c * brightness // 255 (board.leds
Renderer.colour; bgwire.roles.dimmed, a test holds the two equal), and the `leds` live line
carries the colours so drawn. Their names in words, and the exact way back from a drawn
colour to its role, are in bgwire.roles (the host's: every string a module holds costs the
board RAM once it is loaded, so the board loads only this).

Sides: WHITE 0 and BLACK 1, as events (`player`), sim lines (`side`) and bgcore number the
players (in a chouette, the box and the team). Points: each side counts its own points
1..24 (25 its bar, 0 its tray); the board (its sensors, its LEDs) counts in white's:
physical(). (board.layout's WHITE_SIGN and BLACK_SIGN are another thing: the sign of each
colour's magnets in slot codes.)
"""

PROTOCOL = 1  # a hello naming another version is refused by the host
MAX_LINE = 1024  # bytes of one line, newline not counted

ROLL = 1
DOUBLE = 2
TAKE = 4
DROP = 8
VERIFY = 16  # light every difference from the expected position, as the `verify` command does
#             (the pin map names its button undo_verify)
MENU = 32  # after a match: start another with the same settings; in a game: ask for a hint

ORIGIN = (0, 60, 255)  # the lifted checker's point (blue)
TARGET = (0, 255, 40)  # where it may go (green)
WRONG = (255, 0, 0)  # a checker placed where it may not go (red)
MISSING = (255, 140, 0)  # setting up, restoring: a checker missing here (orange)
EXTRA = (255, 0, 90)  # a checker too many here (pink)
HIT = (200, 0, 255)  # a hit blot and the bar it goes to (purple)
DICE = (255, 255, 200)  # the dice's pips
REFUSED = WRONG  # a refused action: both dice red


WHITE = 0
BLACK = 1


def physical(side, point):
    """The board's point (white's numbering) of `side`'s own point 1..24."""
    return point if side == WHITE else 25 - point
