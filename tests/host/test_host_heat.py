# The raw sensor view's drawing (bgboard view, render): each slot's code and, from the
# dump's `confidence`, its confidence digit.
from bgboard.view.drawing import Scene, board_svg


def test_the_heat_map_shows_each_slots_code_and_confidence_digit():
    raw = [2048] * 128
    raw[3] = 2048 + 1040
    codes = [0] * 128
    codes[3] = 2
    conf = "9" * 3 + "4" + "9" * 123 + "-"
    heat = {"raw": raw, "offsets": [2048] * 128, "codes": codes, "faulty": [127],
            "confidence": conf}
    svg = board_svg(Scene(heat=heat))
    assert svg.count('class="heat-cell"') == 128
    digits = [part.split(">", 1)[1].split("<", 1)[0]
              for part in svg.split('class="heat-conf"')[1:]]
    assert "".join(digits) == conf
    # A board with older firmware sends no confidence: the map still draws.
    del heat["confidence"]
    assert 'class="heat-conf"' not in board_svg(Scene(heat=heat))
