import pytest
from hypothesis import given, strategies as st

from studio.hexgrid.labels import AlphaNumericLabels, NumericLabels, column_index, column_letters


@given(st.integers(0, 200), st.sampled_from(["doubled", "excel"]))
def test_column_letters_round_trip(i, style):
    assert column_index(column_letters(i, style), style) == i


@given(st.integers(1, 99).map(str), st.integers(0, 60), st.integers(-1, 60), st.sampled_from(["doubled", "excel"]))
def test_alphanumeric_round_trip(board, col, row, style):
    conv = AlphaNumericLabels(letters=style)
    assert conv.parse(conv.format(board, col, row)) == (board, col, row)


@given(st.sampled_from(["", "A", "B"]), st.integers(0, 98), st.integers(0, 98))
def test_numeric_round_trip(board, col, row):
    conv = NumericLabels(board_ids=("A", "B", "")) if board else NumericLabels()
    label = conv.format(board, col, row)
    assert len(label) == len(board) + 4
    assert conv.parse(label) == (board, col, row)


@given(st.integers(0, 998), st.integers(0, 998))
def test_numeric_wide_boards_use_more_digits(col, row):
    conv = NumericLabels(digits=3)
    assert conv.parse(conv.format("", col, row)) == ("", col, row)


def test_mbt_label_examples():
    # MBT b.8: "2E9" = board 2, column E, row 9; partial half-hexes on the edge are row 0 ("E0")
    conv = AlphaNumericLabels()
    assert conv.parse("2E9") == ("2", 4, 8)
    assert conv.parse("2E0") == ("2", 4, -1)
    assert conv.format("5", 16, 4) == "5Q5"
    assert conv.parse("10AA3") == ("10", 26, 2)


def test_letter_board_ids():
    conv = AlphaNumericLabels(board_ids=("K", "I", "H"))
    assert conv.parse("KH3") == ("K", 7, 2)


@pytest.mark.parametrize(
    "conv,label,message",
    [
        (AlphaNumericLabels(), "E9", "missing board number"),
        (AlphaNumericLabels(), "2E", "expected <board><column letters><row number>"),
        (AlphaNumericLabels(), "2AB3", "doubled-letter"),
        (AlphaNumericLabels(cols=10, rows=10), "2K3", "column 10 is off the board"),
        (AlphaNumericLabels(partial_row=False), "2E0", "row -1 is off the board"),
        (AlphaNumericLabels(board_ids=("1", "2")), "3E9", "known board"),
        (NumericLabels(), "04O5", "expected 4 digits"),
        (NumericLabels(), "A0405", "expected 4 digits"),
        (NumericLabels(cols=20, rows=20), "2101", "column 20 is off the board"),
        (NumericLabels(), "0005", "column -1 is off the board"),
    ],
)
def test_bad_labels_raise_clear_errors(conv, label, message):
    with pytest.raises(ValueError, match=message):
        conv.parse(label)


def test_format_errors():
    with pytest.raises(ValueError, match="does not fit 2-digit"):
        NumericLabels().format("", 120, 3)
    with pytest.raises(ValueError, match="no board prefix"):
        NumericLabels().format("A", 1, 3)
    with pytest.raises(ValueError, match="must be digits"):
        AlphaNumericLabels().format("X", 1, 3)
