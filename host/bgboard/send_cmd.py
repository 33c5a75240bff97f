"""`bgboard send`: one command to the board and its answer printed (JSON, or `ok`). Each
command of docs/protocol.md a person may send is a click command here (`send roll`, `send
double`, `send new match`, ...): a board command without arguments is one more line in the
table `_simple` reads, one with arguments a function like `roll` (the command itself is
defined in bgwire.commands). The board's refusal is one line and exit status 2, a lost link
exit status 1 (bgboard.cli_common.session)."""

import json

import click

from bgboard.cli_common import check_name, match_length, port_option, session
from bgcore.match import MAX_MATCH_LENGTH


def _run(port, cmd, **args):
    # --port may come before the command (`send --port P hello`) or after it; one given on
    # the command line wins over $BGBOARD_PORT wherever it stands.
    from click.core import ParameterSource

    ctx = click.get_current_context(silent=True)
    timeout = 5.0
    given = []
    while ctx is not None:
        if ctx.params.get("timeout") is not None:
            timeout = ctx.params["timeout"]
        if ctx.params.get("port") and \
                ctx.get_parameter_source("port") == ParameterSource.COMMANDLINE:
            given.append(ctx.params["port"])
        ctx = ctx.parent
    with session(given[0] if given else port, timeout) as link:
        return link.command(cmd, **args)


def _print_reply(reply):
    out = {k: v for k, v in reply.items() if k not in ("id", "ok")}
    click.echo(json.dumps(out) if out else "ok")


@click.group()
@click.option("--timeout", type=click.FloatRange(0.1, 600), default=5.0, show_default=True,
              metavar="SECONDS", help="How long to wait for the board's answer.")
@port_option
def send(timeout, port):
    """Send one command to the board and print its answer (JSON)."""


def _simple(name, doc):
    @send.command(name=name, help=doc)
    @port_option
    def command(port):
        _print_reply(_run(port, name))

    return command


for _name, _doc in (
    ("beaver", "Beaver the double on offer, or the double just taken (money play with "
               "beavers)."),
    ("raccoon", "Raccoon the beaver just made (the doubler; money play with raccoons)."),
    ("accept", "Accept the resignation on offer (after a demand: the resigner agrees)."),
    ("reject", "Reject the resignation on offer (after a demand: the resigner plays on)."),
    ("undo", "Take back the last checker moved this turn."),
    ("void", "The opponent voids the play of the roll (the dice were picked up before it was "
             "finished): the checkers go back, the same player throws again."),
    ("correct_setup", "The setup was wrong: after the opening throw, before the next, the "
                      "opening play goes back and the same numbers are played again."),
    ("verify", "Compare every slot with the position: prints the missing and extra places."),
    ("state", "Print the board's whole state."),
    ("hello", "Print the board's hello (firmware and protocol versions)."),
    ("dump", "Print the sensor readings (raw, codes, offsets, faulty, confidence)."),
    ("ledtest", "Light every LED in turn."),
):
    _simple(_name, _doc)


@send.command()
@click.argument("dice", nargs=-1, type=int)
@port_option
def roll(dice, port):
    """Throw for the player on roll: `send roll 5 2` with physical dice, `send roll` for the
    board's. In the opening throw the two dice are player 0's then player 1's."""
    if len(dice) not in (0, 2):
        raise click.UsageError("give two dice (e.g. `send roll 5 2`) or none")
    for d in dice:
        if not 1 <= d <= 6:
            raise click.UsageError("a die shows 1 to 6, got %d" % d)
    args = {"dice": list(dice)} if dice else {}
    _print_reply(_run(port, "roll", **args))


@send.command()
@click.argument("dice", nargs=2, type=click.IntRange(1, 6))
@port_option
def rethrow(dice, port):
    """The thrower's dice came to rest cocked: DICE (two numbers) are the throw again, before
    any checker is moved."""
    _print_reply(_run(port, "rethrow", dice=list(dice)))


def _cube(name, doc):
    @send.command(name=name, help=doc)
    @click.option("--member", "-m", metavar="NAME", default=None,
                  help="Chouette: whose stake (see above); default: the only one it can be.")
    @port_option
    def command(member, port):
        args = {"member": check_name(member, "--member")} if member is not None else {}
        _print_reply(_run(port, name, **args))

    return command


_cube("double", "Offer a double (the player on roll, before rolling). Chouette: with a single "
                "cube the box doubles the whole team, the captain doubles for the team; with "
                "multiple cubes the box doubles --member's cube (none named: every cube it "
                "may double) and a member doubles the box on their own cube (--member).")
_cube("take", "Take the double on offer. Chouette: --member names the member who takes the "
              "box's double, or (multiple cubes) whose double the box takes.")
_cube("drop", "Drop (pass) the double on offer. Chouette: --member as for take.")


@send.command()
@click.argument("name")
@port_option
def partner(name, port):
    """Chouette, before a game: the box takes NAME (a team member) as its partner for that
    game; they share the box's results half and half (needs --partner-from). NAME '*': the
    board draws one by lot among the members other than the captain."""
    _print_reply(_run(port, "partner", member=check_name(name, "NAME")))


@send.command()
@click.argument("name")
@port_option
def join(name, port):
    """Chouette: NAME joins at the bottom of the rotation (during a game: after it)."""
    _print_reply(_run(port, "join", name=check_name(name, "NAME")))


@send.command()
@click.argument("name")
@port_option
def leave(name, port):
    """Chouette: NAME leaves; during a game NAME settles as a drop of the present cube (the
    box leaving ends the game: the captain becomes the box); three players stay."""
    _print_reply(_run(port, "leave", name=check_name(name, "NAME")))


LEVEL_WORDS = {"1": 1, "2": 2, "3": 3, "single": 1, "gammon": 2, "backgammon": 3}


def _level(name, level):
    value = LEVEL_WORDS.get(level.lower())
    if value is None:
        raise click.UsageError("%s 1 (single), 2 (gammon) or 3 (backgammon), got %r"
                               % (name, level))
    return value


@send.command()
@click.argument("level", default="1")
@port_option
def resign(level, port):
    """Offer to resign (the player on roll): 1 or single, 2 or gammon, 3 or backgammon."""
    _print_reply(_run(port, "resign", level=_level("resign", level)))


@send.command()
@click.argument("level", default="2")
@port_option
def demand(level, port):
    """Instead of accepting a resignation, require a higher forfeit (2 or gammon, 3 or
    backgammon); the resigner then accepts (agrees) or rejects (plays on)."""
    _print_reply(_run(port, "demand", level=_level("demand", level)))


def rules_options(f):
    opts = [
        click.option("--opening-rethrow", is_flag=True, default=None,
                     help="Old rule: the first player may throw both dice again."),
        click.option("--shut-out-pass", is_flag=True, default=None,
                     help="A player on the bar against a closed board passes without "
                          "throwing (default: throws, and the roll has no play)."),
        click.option("--dead-cube", is_flag=True, default=None,
                     help="Match: no double once a win on the cube gives the doubler the "
                          "match (gnubg's play; by default only a cube that gives both "
                          "sides the match is dead)."),
        click.option("--holland", is_flag=True, default=None,
                     help="Match: post-Crawford, the trailer doubles only after two rolls "
                          "each."),
        click.option("--crawford/--no-crawford", default=None,
                     help="Match: the Crawford rule (default on)."),
        click.option("--cube-cap", type=int, default=None, metavar="N",
                     help="Highest cube value allowed (a power of 2)."),
        click.option("--automatic-doubles", type=int, default=None, metavar="N",
                     help="Money: opening ties turn the cube, at most N times."),
        click.option("--raccoons", is_flag=True, default=None,
                     help="Money: the doubler may redouble a beaver at once."),
        click.option("--beavers", is_flag=True, default=None,
                     help="Money: the taker may redouble at once and keep the cube."),
        click.option("--jacoby/--no-jacoby", default=None,
                     help="Money: gammons count single while the cube is centred."),
    ]
    for o in opts:
        f = o(f)
    return f


def _rules(kind, opts):
    from bgcore import Rules

    given = {k: v for k, v in opts.items() if v is not None}
    try:
        rules = Rules(**given)
        if kind == "match":
            rules.check_match()
    except ValueError as e:
        raise click.UsageError(str(e)) from None
    return given


@send.group(name="new")
@port_option
def new(port):
    """Start a new match, money session or chouette (the board then asks for the starting
    position)."""


@new.command(name="match", help="A match to LENGTH points (1 to %d, the longest gnubg "
                                 "plays)." % MAX_MATCH_LENGTH)
@click.argument("length", callback=match_length)
@rules_options
@port_option
def new_match(length, port, **opts):
    options = _rules("match", opts)
    _print_reply(_run(port, "new", kind="match", length=length, options=options))


@new.command(name="money")
@click.option("--games", type=click.IntRange(1, 255), default=None, metavar="N",
              help="A match over N games decided by the total points (match play's rules: "
                   "no Jacoby, beavers or automatic doubles).")
@rules_options
@port_option
def new_money(port, games, **opts):
    """A money session (games scored one by one, no match length), or with --games a match
    over that many games, decided by the total."""
    options = _rules("match" if games else "money", opts)
    extra = {"games": games} if games else {}
    _print_reply(_run(port, "new", kind="money", options=options, **extra))


@new.command(name="chouette")
@click.option("--players", required=True, metavar="A,B,C,...",
              help="Three or more names, comma-separated, highest rank first: the first is "
                   "the box, the second the captain.")
@click.option("--single-cube", is_flag=True,
              help="One cube for the team (each member takes or drops the box's double); "
                   "default: multiple cubes, one per member.")
@click.option("--partner-from", type=int, default=None, metavar="N",
              help="With N (6 or 8) or more players the box may take a partner (`send "
                   "partner NAME`).")
@click.option("--partner-by", type=click.Choice(["rotation", "lot", "beaten"]), default=None,
              help="How the box's partner is chosen: offered in rotation from the captain "
                   "(default; `send partner '*'` draws by lot when nobody accepts), by lot "
                   "among the members other than the captain, or the player just beaten.")
@click.option("--consult", type=click.Choice(["free", "none", "cube"]), default=None,
              help="May the team consult on the play: freely (default), never, or once the "
                   "cube is turned (`state` says whether it may now).")
@rules_options
@port_option
def new_chouette(players, single_cube, partner_from, partner_by, consult, port, **opts):
    """A chouette: the box (white) against a team whose captain plays black's checkers;
    every member answers the box's doubles on their own. Results are settled per member
    and the line-up rotates after each game."""
    from bgcore import Chouette, Rules

    names = [check_name(n, "--players") for n in players.split(",")]
    options = _rules("money", opts)
    try:
        Chouette(names, Rules(**options), not single_cube, partner_from, consult or "free",
                 partner_by or "rotation")
    except ValueError as e:
        raise click.UsageError(str(e)) from None
    options["multiple_cubes"] = not single_cube
    if partner_from is not None:
        options["partner_from"] = partner_from
    for k, v in (("consult", consult), ("partner_by", partner_by)):
        if v is not None:
            options[k] = v
    _print_reply(_run(port, "new", kind="chouette", players=names, options=options))


COMMANDS = [send]
