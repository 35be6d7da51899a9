"""LazyDice (studio.rules.dice): the observation dice of the engines, made on first use."""
from functools import partial

from studio.rules.dice import Dice, LazyDice, text_seed


def _calls():
    made = []

    def seed():
        made.append(1)
        return 1234

    return made, seed


def test_lazy_dice_roll_like_seeded_dice_and_make_the_generator_once():
    made, seed = _calls()
    lazy, plain = LazyDice(seed), Dice(1234, record=False)
    assert made == []
    assert [lazy.roll(10) for _ in range(20)] == [plain.roll(10) for _ in range(20)]
    assert lazy.randrange(7) == plain.randrange(7) and lazy.choice("abcdef") == plain.choice("abcdef")
    assert made == [1] and lazy.history == [] and lazy.record is False


def test_forced_rolls_need_no_generator_and_clones_stay_lazy():
    made, seed = _calls()
    lazy = LazyDice(seed)
    lazy.force(3, 4)
    twin = lazy.clone()
    assert isinstance(twin, LazyDice) and made == []
    assert lazy.roll(6) == 3 and twin.roll(6) == 3 and made == []
    assert twin.roll(6) == 4 and twin.roll(6) == Dice(1234).roll(6)
    assert made == [1]


def test_a_used_lazy_dice_clones_with_the_generator_state():
    lazy = LazyDice(99)
    lazy.roll(100)
    twin = lazy.clone()
    assert [twin.roll(100) for _ in range(5)] == [lazy.roll(100) for _ in range(5)]
    assert lazy.fingerprint() == twin.fingerprint()


def test_text_seed_is_the_seed_of_seeded_from():
    text = "3|17|None|4"
    lazy = LazyDice(partial(text_seed, text))
    seeded = Dice.seeded_from(text, record=False)
    assert [lazy.roll(6) for _ in range(10)] == [seeded.roll(6) for _ in range(10)]
