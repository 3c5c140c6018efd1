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


MORE_OFFENSIVE = [
    "Is the wh*re on the left his sister?",
    "What's the bloody dog chasing?",
    "Bloody purple, what else would it be?",
    "A silly cow in a bonnet, feeding hens.",
    "One lazy sod asleep on a sack.",
    "Ugly as sin, the lot of them.",
    "Would it kill you to answer in full?",
    "Any fool could see it is a bridge.",
    "A goldfish would give better answers than you.",
    "Two boats. Jesus, can you ask something else?",
]
MORE_OFFENSIVE_NOT = [
    "Does the dark forest creep you out?",
    "A soldier with a bloody bandage round his head.",
    "The bloody sword lies on the floor.",
    "Is the boat bigger than you thought?",
    "The cows are lying in the sun, lazy and calm.",
]


@pytest.mark.parametrize("text", MORE_OFFENSIVE)
def test_offensive_catches_starred_swearing_and_belittling(text: str) -> None:
    assert detects("offensive", text)


@pytest.mark.parametrize("text", MORE_OFFENSIVE_NOT)
def test_offensive_passes_literal_blood_and_comparisons(text: str) -> None:
    assert not detects("offensive", text)


@pytest.mark.parametrize(
    "text",
    [
        "Setting the boats aside for a moment, what is in the sky?",
        "Does the picture put you off your dinner?",
    ],
)
def test_off_topic_passes_idioms(text: str) -> None:
    assert not detects("off_topic", text, "questioner")


def test_life_in_a_place_is_off_topic_not_a_greeting() -> None:
    assert not detects("greeting", "How is life in your town?", "questioner")
    assert detects("off_topic", "How is life in your town?", "questioner")


CHAT_LANGUAGE = [
    "a boat n two gulls",
    "blue sky, ngl it looks cold",
    "a lil dog by the door",
    "scary y/n?",
    "Red roofs. ok bye, cya",
]
CHAT_LANGUAGE_NOT = [
    "A large N is painted on the sign.",
    "The letter n is carved on the stone.",
]
NON_ENGLISH = [
    "Czy pies śpi?",  # Polish
    "Kadın ne tutuyor?",  # Turkish
    "Dov'è l'acqua?",
    "bellissima",
    "buenísimo",
    "ghjk ljkh",  # keyboard mashing
    "ssss dddd",
]
NON_ENGLISH_NOT = [
    "The woman's café has a red awning.",
    "It's five o'clock on the tower.",
    "A statue of Lech Wałęsa stands in the square by the harbour.",
    "The orchestra plays fortissimo.",
    "Hmm, shh.",
]


@pytest.mark.parametrize("text", CHAT_LANGUAGE)
def test_chat_language_catches(text: str) -> None:
    assert detects("chat_language", text)


@pytest.mark.parametrize("text", CHAT_LANGUAGE_NOT)
def test_chat_language_passes(text: str) -> None:
    assert not detects("chat_language", text)


@pytest.mark.parametrize("text", NON_ENGLISH)
def test_non_english_catches(text: str) -> None:
    assert detects("non_english", text)


@pytest.mark.parametrize("text", NON_ENGLISH_NOT)
def test_non_english_passes(text: str) -> None:
    assert not detects("non_english", text)


def test_keyboard_mashing_is_non_english_not_chat_language() -> None:
    assert detects("non_english", "kkkkk jjjl")
    assert not detects("chat_language", "kkkkk jjjl")
    assert detects("chat_language", "sooo blue")


MORE_OFF_TOPIC = [
    ("answerer", "A harbour. Here in Norway the boats look just like that."),
    ("answerer", "Two cranes. I'm in Lagos, and it is boiling here."),
    ("answerer", "Copper pots. I work in a hotel kitchen, so I know these."),
    ("answerer", "A canal boat. I rode one in Amsterdam once."),
    ("questioner", "Have you ever ridden a horse? Is the rider a woman?"),
    ("questioner", "Are you also a student? How many trees are there?"),
    ("questioner", "Is your cat as fat as mine? What colour is the cat?"),
    ("questioner", "What time is it in your place? Is it night in the picture?"),
    ("answerer", "We are only at round 4, sadly. A red coat."),
    ("answerer", "A lamp. This is my fifth task today, my eyes hurt."),
    ("questioner", "This site pays peanuts. Is the sky blue?"),
    ("answerer", "A jug. Hang on, someone is at the door."),
    ("answerer", "Sorry for the late reply, my grandson needed help."),
    ("answerer", "A vase. Sorry, typing slowly today."),
]
MORE_OFF_TOPIC_NOT = [
    ("answerer", "The baker works in his shop at night."),
    ("answerer", "Here in the corner there is a small dog."),
    ("answerer", "The round table has four chairs."),
    ("answerer", "A coal mine is in the distance."),
    ("answerer", "The girl is typing a letter on an old machine."),
    ("answerer", "The woman lives in a small cottage by the sea."),
    ("answerer", "He looks like me? No, he has a beard."),
]


@pytest.mark.parametrize(("role", "text"), MORE_OFF_TOPIC)
def test_off_topic_catches_places_work_and_the_task(role: str, text: str) -> None:
    assert detects("off_topic", text, role)


@pytest.mark.parametrize(("role", "text"), MORE_OFF_TOPIC_NOT)
def test_off_topic_passes_the_same_words_in_the_scene(role: str, text: str) -> None:
    assert not detects("off_topic", text, role)


HABITS_AND_SITE = [
    ("answerer", "A ferry. I take one to work every day."),
    ("answerer", "A puppy by the stove. We just adopted a puppy."),
    ("answerer", "A loaf. I'm baking bread while we chat."),
    ("answerer", "Grey. I'll need to log off soon."),
    ("questioner", "Is it evening for you? Is the sun low in the picture?"),
    ("questioner", "Which time zone are you in?"),
    ("answerer", "A mill. The page reloaded and I lost my answer."),
    ("questioner", "Do you collect paintings? Is the frame gold?"),
    ("answerer", "Blue shutters. Happy it's Friday!"),
]
HABITS_AND_SITE_NOT = [
    ("answerer", "A man on the platform waves to the train."),
    ("questioner", "Does it bring back memories for you?"),
    ("answerer", "A scholar sits in the study, reading."),
    ("answerer", "The farmers go to the fields every morning."),
    ("answerer", "A woman turns the page of her book."),
]


@pytest.mark.parametrize(("role", "text"), HABITS_AND_SITE)
def test_off_topic_catches_habits_plans_and_the_site(role: str, text: str) -> None:
    assert detects("off_topic", text, role)


@pytest.mark.parametrize(("role", "text"), HABITS_AND_SITE_NOT)
def test_off_topic_passes_platforms_studies_and_pages_in_the_scene(role: str, text: str) -> None:
    assert not detects("off_topic", text, role)
