"""The detectors of greeting, off_topic, offensive, chat_language and non_english on their own.

Written after batches 5 and 6 were opened as development data. Every sentence here is made up for
the test: each stands for a general form (a name-calling word, an aside about the worker's life, a
farewell in chat spelling), with near misses that use the same words in an ordinary sense. The
detectors are called directly, without the learned classifiers, so that a case shows what the
phrase rules themselves catch.
"""

from __future__ import annotations

import pytest

from server.rules import offensive
from server.rules.base import Context
from server.rules.config import RulesConfig
from server.rules.registry import RULES_BY_ID

CONFIG = RulesConfig()


def detects(rule: str, text: str, role: str = "answerer") -> bool:
    return bool(RULES_BY_ID[rule].detect(Context(role, 2, text), CONFIG.rule_config(rule)))


OFFENSIVE = [
    # name-calling, of the partner or of a depicted person
    "Look again, nitwit.",
    "The sailor in the boat looks like a total meathead.",
    "Is the grumpy geezer on the bench asleep?",
    "A spoilt brat is pulling the cat's tail.",
    "What is the dummy doing, ask properly.",
    "Are the dumb shepherds lost?",
    "That was the stupidest thing you asked so far.",
    "Three useless guards asleep by the gate.",
    # a person made an animal or a figure of contempt
    "The innkeeper is a greasy pig of a man.",
    "The old lady looks like a wrinkled old bat.",
    "The soldiers look like a pack of animals.",
    "Is the miserable old witch his aunt?",
    "The fishermen are just lazy bums.",
    # the partner belittled without a swear word
    "You really are hopeless at this.",
    "Why are you so slow?",
    "Is that too hard a question for you?",
    "Does your tiny brain hurt yet?",
    "Blue, obviously, genius.",
    "You describe like a toddler.",
    "Even a child could see that.",
    "Can you stop being dense and answer?",
    "Can you read, or not?",
    # the question or the artwork called worthless
    "Who would hang this rubbish on a wall?",
    "Your questions are so pointless.",
    # mild swearing and telling off
    "The sea looks bloody cold.",
    "The hills are green as hell.",
    "The perspective sucks.",
    "Bugger off, I answered that.",
    "Get lost, I'm done.",
    "God, you ask the same thing again.",
    "For crying out loud, it is a cat.",
]
OFFENSIVE_NOT = [
    # the same words in their ordinary sense
    "A tailor's dummy stands in the shop window.",
    "The shepherds are struck dumb by the angel.",
    "A lame beggar leans on a crutch.",
    "The skull on the desk gives me the creeps.",
    "The scarecrow looks stupid-looking in the rain? No, it looks sad.",
    "A fat pig sleeps in the pen.",
    "Is the pig big or small?",
    "The cow is black and white.",
    "The old goat in the field has a long beard.",
    "The witch in the fairy tale is stirring a pot.",
    "The cloud looks like a pig.",
    "Rubbish bins stand by the door.",
    "A sword, bloody at the tip.",
    "The lower half is painted as hell, full of flames.",
    "A baby sucks its thumb.",
    "The fog is thick.",
    "Sorry, I'm slow tonight.",
    "Is the forest dense?",
    "Christ is in the middle, in a red robe.",
    "The old man is about to die.",
    "Two nurses in white aprons.",
    "white",
    "Old.",
]


@pytest.mark.parametrize("text", OFFENSIVE)
def test_offensive_catches(text: str) -> None:
    assert detects("offensive", text)


@pytest.mark.parametrize("text", OFFENSIVE_NOT)
def test_offensive_passes(text: str) -> None:
    assert not detects("offensive", text)


def test_a_short_message_needs_a_listed_word() -> None:
    """The model alone does not flag a message of one to three words; the word list still does."""
    assert offensive.MIN_MODEL_WORDS == 4
    assert offensive.model_scores(["you idiot"])[0] >= 0.9
    assert detects("offensive", "Idiot.")
    assert detects("offensive", "You moron!")
    assert not detects("offensive", "It is disgusting?")


def test_colours_and_animals_are_hidden_from_the_model() -> None:
    """ "white", "pig" and "die" in a description do not raise the model's score."""
    masked = offensive.model_input("a white pig and a cow about to die")
    assert "white" not in masked and "pig" not in masked and "die" not in masked
    assert offensive.model_scores(["white"])[0] < 0.5


OFF_TOPIC = [
    # what the worker did once, always wanted, never saw
    ("answerer", "Yes, a harbour. I grew up in a fishing town myself."),
    ("answerer", "A tram. We used to take one to school every day."),
    ("questioner", "I've always wanted to visit Lisbon, is this Lisbon?"),
    ("answerer", "A glacier. I have never seen a real glacier."),
    ("answerer", "Two kites. When I was little I flew kites with my uncle."),
    ("answerer", "A red barn, it reminds me of my grandparents' place."),
    ("answerer", "Snowy fields. We went skiing there last winter."),
    ("answerer", "Three geese. We had a goose that used to chase me, I miss her."),
    # the weather and the time where the worker is
    ("answerer", "Grey clouds. It's raining here too right now."),
    ("answerer", "A dark street. It's nearly one in the morning here."),
    ("answerer", "Palm trees, like the ones where I live."),
    ("answerer", "A lamp post. The power went out here twice this week."),
    # what the worker is doing or feeling now
    ("answerer", "A kettle. I'm drinking tea myself right now."),
    ("answerer", "Some bread. I'm starving, honestly."),
    ("answerer", "A cart. Sorry, my cat just knocked over my cup."),
    ("answerer", "Two chairs. I haven't had breakfast yet."),
    ("answerer", "A fiddle. One sec, someone is at the door."),
    ("answerer", "A plate of fish. I'm vegetarian actually."),
    ("answerer", "A bridge. My headphones keep cutting out."),
    # the task
    ("questioner", "How many of these chats have you done today?"),
    ("questioner", "My last partner never answered, are you there?"),
    ("answerer", "A cow. Only three more rounds and we're done."),
    ("questioner", "Is the pay on these any good?"),
    ("questioner", "Do we get paid more for longer answers?"),
    # the partner's life
    ("questioner", "Do you have any pets at home?"),
    ("questioner", "Did you grow up near the sea?"),
    ("questioner", "Is your city as foggy as this one?"),
    ("questioner", "Which country are you from?"),
    ("questioner", "What are you having for dinner tonight?"),
]
OFF_TOPIC_NOT = [
    ("answerer", "The boy in the picture is eating his lunch."),
    ("questioner", "What is the family having for dinner?"),
    ("questioner", "Are the workers being paid?"),
    ("questioner", "Which country might the harbour be in?"),
    ("answerer", "On my screen the sky looks almost green."),
    ("answerer", "Orange where the light hits and blue in the shade."),
    ("answerer", "It is raining in the painting, the street is wet."),
    ("answerer", "A woman is walking her dog by the river."),
    ("answerer", "In my opinion the sea is the best part."),
    ("questioner", "Do you see any boats on the water?"),
    ("questioner", "Is it night in the picture?"),
    ("answerer", "A soldier is writing a letter home."),
    ("answerer", "The children are on their way to school."),
    ("questioner", "Hey, how's your day going? Is there a dog?"),
]
GREETING = [
    ("answerer", "A blue jug on the shelf. Gotta run now, cya"),
    ("answerer", "Green hills. Good luck with the rest of your tasks!"),
    ("answerer", "A mill by the stream. Cheers, great chatting with you!"),
    ("questioner", "Hi, how's your day going?"),
]
GREETING_NOT = [
    ("answerer", "The woman is waving goodbye to a ship."),
    ("answerer", "A horseshoe hangs over the door for good luck."),
    ("questioner", "Is the man working with anyone?"),
]


@pytest.mark.parametrize(("role", "text"), OFF_TOPIC)
def test_off_topic_catches(role: str, text: str) -> None:
    assert detects("off_topic", text, role)


@pytest.mark.parametrize(("role", "text"), OFF_TOPIC_NOT)
def test_off_topic_passes(role: str, text: str) -> None:
    assert not detects("off_topic", text, role)


@pytest.mark.parametrize(("role", "text"), GREETING)
def test_greeting_catches(role: str, text: str) -> None:
    assert detects("greeting", text, role)


@pytest.mark.parametrize(("role", "text"), GREETING_NOT)
def test_greeting_passes(role: str, text: str) -> None:
    assert not detects("greeting", text, role)
