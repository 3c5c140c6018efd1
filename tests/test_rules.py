"""Live chat rules: positive and negative examples per rule, configuration, bulk checks, the CLI."""

from __future__ import annotations

import json
import tomllib

import pytest
from pydantic import ValidationError
from typer.testing import CliRunner

from server.cli import app as avd
from server.rules import RULE_IDS, RULES, RulesConfig, check, check_dialog, check_many
from server.rules.evaluate import Counts, evaluate, load_labeled, render_table, write_docs
from server.settings import Settings

OPINIONS = [
    {"emotion": "sadness", "text": "The lonely old fisherman on the grey beach makes me think of loss."},
    {"emotion": "contentment", "text": "Soft evening light over the calm sea feels gentle and warm."},
]


def hits(role: str, text: str, **kw) -> set[str]:
    return set(check(role, kw.pop("round", 2), text, **kw).rule_ids)


# (role, text, rule that must hit) and (role, text, rule that must not hit)
POSITIVE = [
    ("questioner", "Hi there! Is the sky blue?", "greeting"),
    ("questioner", "Hello, how are you?", "greeting"),
    ("answerer", "Good morning", "greeting"),
    ("answerer", "I am fine, thanks. And you?", "greeting"),
    ("answerer", "Thank you!", "greeting"),
    ("questioner", "Bye, have a nice day", "greeting"),
    ("answerer", "The weather is so nice today where I live.", "off_topic"),
    ("questioner", "Where are you from?", "off_topic"),
    ("questioner", "Is this your first hit today?", "off_topic"),
    ("answerer", "I hope we get paid quickly for this one.", "off_topic"),
    ("questioner", "How was your day so far?", "off_topic"),
    ("questioner", "How many questions are left?", "off_topic"),
    ("answerer", "What the hell kind of question is that", "offensive"),
    ("questioner", "This is a stupid painting, you idiot.", "offensive"),
    ("answerer", "Shut up and ask something else.", "offensive"),
    ("answerer", "This painting sucks.", "offensive"),
    ("questioner", "r there any ppl in it?", "chat_language"),
    ("questioner", "What color is the sky plz?", "chat_language"),
    ("answerer", "Its sooo green and bright", "chat_language"),
    ("answerer", "There are two dogs!!!", "chat_language"),
    ("answerer", "idk, maybe a horse", "chat_language"),
    ("answerer", "The dog is gr8 :)", "chat_language"),
    ("answerer", "La mujer lleva un vestido rojo y está sentada.", "non_english"),
    ("questioner", "Was ist im Hintergrund zu sehen?", "non_english"),
    ("questioner", "¿Hay personas en el barco?", "non_english"),
    ("answerer", "这幅画里有一座山", "non_english"),
    ("answerer", "asdkj qwpeo zmxnc lkjhg", "non_english"),
    ("questioner", "How do you feel about the painting?", "asks_feelings"),
    ("questioner", "Do you like it?", "asks_feelings"),
    ("questioner", "Does the picture make you sad?", "asks_feelings"),
    ("questioner", "What emotion does the image evoke in you?", "asks_feelings"),
    ("questioner", "Would you hang it in your living room?", "asks_feelings"),
    ("questioner", "What is the image about?", "generic_question"),
    ("questioner", "Can you describe the picture please?", "generic_question"),
    ("questioner", "Anything else?", "generic_question"),
    ("questioner", "What else?", "generic_question"),
    ("questioner", "Any more details?", "generic_question"),
    ("questioner", "What do you see?", "generic_question"),
    ("answerer", "Yes", "short_answer"),
    ("answerer", "No, not really.", "short_answer"),
    ("answerer", "Not sure", "short_answer"),
    ("answerer", "Maybe.", "short_answer"),
    ("answerer", "Two dogs", "short_answer"),
    ("answerer", "Yes, there is.", "short_answer"),
    ("answerer", "The picture is depressing.", "imposes_emotion"),
    ("answerer", "It makes me feel happy and calm.", "imposes_emotion"),
    ("answerer", "This image is scary, with a dark forest.", "imposes_emotion"),
    ("answerer", "It's a very sad painting overall.", "imposes_emotion"),
    ("answerer", "Looking at it, I feel uneasy.", "imposes_emotion"),
    ("questioner", "The sky is blue then.", "not_a_question"),
    ("questioner", "ok i see", "not_a_question"),
    ("questioner", "Nice colours.", "not_a_question"),
    ("answerer", "What do you mean?", "answer_is_question"),
    ("answerer", "Which one, the man or the woman?", "answer_is_question"),
    ("answerer", "what do you mean", "answer_is_question"),
    # off_topic: seasons and time where the partner is, home, travels, devices, the task itself
    ("questioner", "Is it summer where you are now?", "off_topic"),
    ("answerer", "It's already dark here.", "off_topic"),
    ("questioner", "Lovely day, isn't it?", "off_topic"),
    ("questioner", "Do you get much snow in your country?", "off_topic"),
    ("questioner", "Are you in Canada?", "off_topic"),
    ("questioner", "Have you ever been to Amsterdam?", "off_topic"),
    ("answerer", "Sorry, I was away for a minute.", "off_topic"),
    ("answerer", "I'm typing this on my phone so it is slow.", "off_topic"),
    ("questioner", "How long have you been doing these?", "off_topic"),
    ("answerer", "I need to leave soon, can we speed up?", "off_topic"),
    ("questioner", "Do you paint in your free time?", "off_topic"),
    # non_english: short ASCII messages and sentences of short Romance words
    ("answerer", "muy bonito", "non_english"),
    ("answerer", "Si, molto bello", "non_english"),
    ("answerer", "Tres belle", "non_english"),
    ("questioner", "Es muy triste?", "non_english"),
    ("answerer", "Ha un cappello e un cane.", "non_english"),
    ("answerer", "Hay un barco y dos hombres en la playa.", "non_english"),
    ("answerer", "Il y a trois bateaux", "non_english"),
    # asks_feelings: judgements asked without "you", verdicts put up for agreement, moods
    ("questioner", "Do you think the painting is beautiful?", "asks_feelings"),
    ("questioner", "Don't you find it boring?", "asks_feelings"),
    ("questioner", "It's a gorgeous picture, right?", "asks_feelings"),
    ("questioner", "What kind of mood does the scene put you in?", "asks_feelings"),
    ("questioner", "What sort of feeling does the painting convey?", "asks_feelings"),
    ("questioner", "Is the mood cheerful or gloomy?", "asks_feelings"),
    ("questioner", "Is the atmosphere depressing?", "asks_feelings"),
    ("questioner", "How does the picture feel?", "asks_feelings"),
    ("questioner", "Describe the mood of the painting.", "asks_feelings"),
    ("questioner", "Which word best describes the painting?", "asks_feelings"),
    ("questioner", "Is the view of the harbour breathtaking?", "asks_feelings"),
    ("questioner", "Does the forest look creepy?", "asks_feelings"),
    ("questioner", "Does it speak to you?", "asks_feelings"),
    ("questioner", "How would you rate it?", "asks_feelings"),
    ("questioner", "What do you make of it?", "asks_feelings"),
    # generic_question: filler words, "here", requests for an overview
    ("questioner", "What the heck is going on in this picture?", "generic_question"),
    ("questioner", "So what exactly is the painting about?", "generic_question"),
    ("questioner", "Is there more?", "generic_question"),
    ("questioner", "What's happening here?", "generic_question"),
    ("questioner", "What is this?", "generic_question"),
    ("questioner", "Tell me what you see.", "generic_question"),
    ("questioner", "Could you give me a quick overview?", "generic_question"),
    ("questioner", "What's the general idea of the picture?", "generic_question"),
    ("questioner", "How would you describe the image?", "generic_question"),
    ("questioner", "What are we looking at?", "generic_question"),
    # short_answer: long but empty answers
    ("answerer", "Sure, why not.", "short_answer"),
    ("answerer", "I really cannot say much about that one.", "short_answer"),
    ("answerer", "It's hard to tell from the picture.", "short_answer"),
    ("answerer", "As I said before, yes.", "short_answer"),
    ("answerer", "I can't see that in the painting, sorry.", "short_answer"),
]
NEGATIVE = [
    ("questioner", "Is the woman waving hello to someone?", "greeting"),
    ("questioner", "How are you able to tell that it is winter?", "greeting"),
    ("answerer", "Morning light falls across the wheat field.", "greeting"),
    ("answerer", "Good evening light falls on the river and the boats.", "greeting"),
    ("answerer", "High in the sky there are grey clouds.", "greeting"),
    ("questioner", "Thanks. Is the dog large or small?", "greeting"),
    ("questioner", "What is the weather like in the painting?", "off_topic"),
    ("answerer", "It is raining in the scene and the street looks wet.", "off_topic"),
    ("answerer", "The light hits the water and makes it sparkle.", "off_topic"),
    ("answerer", "The man seems to be paying the merchant with coins.", "off_topic"),
    ("answerer", "A naked woman lies on a bed beside a maid.", "offensive"),
    ("answerer", "Demons drag the damned souls into hell.", "offensive"),
    ("answerer", "A rooster and a cock stand by the barn.", "offensive"),
    ("answerer", "Soldiers kill each other on a bloody battlefield.", "offensive"),
    ("answerer", "Mary rides an ass towards the town.", "offensive"),
    ("answerer", "The river makes a U-shaped bend.", "chat_language"),
    ("answerer", "King Louis XIII sits on a white horse.", "chat_language"),
    ("questioner", "Are you sure there is a boat?", "chat_language"),
    ("answerer", "The woman wears a turquoise dress with ruffled sleeves.", "non_english"),
    ("answerer", "Blue sky, green trees, brown cows.", "non_english"),
    ("answerer", "The café in Arles has yellow walls.", "non_english"),
    ("answerer", "The graffiti-covered skaters stand near neon billboards.", "non_english"),
    ("answerer", "The son of the king kneels before his father.", "non_english"),
    ("questioner", "How does the woman in the painting feel?", "asks_feelings"),
    ("questioner", "Does the dog look happy?", "asks_feelings"),
    ("questioner", "What do you think the man is holding?", "asks_feelings"),
    ("questioner", "Would you describe the colors as warm or cold?", "asks_feelings"),
    ("questioner", "What is the man in the picture holding?", "generic_question"),
    ("questioner", "Can you describe the woman's dress?", "generic_question"),
    ("questioner", "What else is in the background?", "generic_question"),
    ("questioner", "What do you see in the sky?", "generic_question"),
    ("answerer", "Yes, it is a small brown dog.", "short_answer"),
    ("answerer", "No, the sky is clear and pale blue.", "short_answer"),
    ("answerer", "There are two dogs.", "short_answer"),
    ("answerer", "A woman with a sad face sits at the window.", "imposes_emotion"),
    ("answerer", "The dog looks happy and wags its tail.", "imposes_emotion"),
    ("answerer", "The sky is dark and stormy over the sea.", "imposes_emotion"),
    ("answerer", "The colors are mostly dull browns and greys.", "imposes_emotion"),
    ("questioner", "What colour is the sky?", "not_a_question"),
    ("questioner", "Describe the woman's face.", "not_a_question"),
    ("questioner", "I'd like to know what the man is wearing.", "not_a_question"),
    ("questioner", "Interesting. is the boat close to the shore", "not_a_question"),
    ("answerer", "Do you mean the woman on the left? She wears a red scarf.", "answer_is_question"),
    ("answerer", "Where the river bends there is a small wooden bridge.", "answer_is_question"),
    ("answerer", "The woman asks the child what he is doing.", "answer_is_question"),
    ("questioner", "Is it winter in the painting?", "off_topic"),
    ("answerer", "It is night in the scene and the lanterns are lit.", "off_topic"),
    ("questioner", "Is the dog in the water?", "off_topic"),
    ("answerer", "The boy has to go home, his mother is calling him.", "off_topic"),
    ("questioner", "Is the man talking on his phone?", "off_topic"),
    ("answerer", "It looks like early morning here in the picture.", "off_topic"),
    ("questioner", "Does the woman play the piano?", "off_topic"),
    ("questioner", "El Greco?", "non_english"),
    ("answerer", "Ha ha, the dog is stealing a sausage.", "non_english"),
    ("answerer", "Pieter de Hooch painted a courtyard like this.", "non_english"),
    ("answerer", "A Sunday on La Grande Jatte", "non_english"),
    ("answerer", "Ha, no.", "non_english"),
    ("questioner", "Do you think the woman is sad?", "asks_feelings"),
    ("questioner", "Is the dog terrifying the cat?", "asks_feelings"),
    ("questioner", "Is there anything scary in the picture?", "asks_feelings"),
    ("questioner", "Is the emotion on her face easy to read?", "asks_feelings"),
    ("questioner", "What kind of mood does the woman seem to be in?", "asks_feelings"),
    ("questioner", "What is the mood of the old man?", "asks_feelings"),
    ("questioner", "Is it a sunny day, right?", "asks_feelings"),
    ("questioner", "Is the man relaxing on the bench?", "asks_feelings"),
    ("questioner", "Is the woman beautiful?", "asks_feelings"),
    ("questioner", "What is this man holding?", "generic_question"),
    ("questioner", "Is there more snow on the roofs?", "generic_question"),
    ("questioner", "Is there anything else on the table?", "generic_question"),
    ("questioner", "What is the picture on the wall?", "generic_question"),
    ("questioner", "Tell me what the light on the water looks like.", "generic_question"),
    ("questioner", "What is it like outside the window?", "generic_question"),
    ("answerer", "Yes, on the right.", "short_answer"),
    ("answerer", "There is only one.", "short_answer"),
    ("answerer", "She is above him.", "short_answer"),
    ("answerer", "Yes, there are 3 of them.", "short_answer"),
    ("answerer", "What do you think?", "short_answer"),
    ("answerer", "And who is in it?", "short_answer"),
]


@pytest.mark.parametrize(("role", "text", "rule"), POSITIVE)
def test_rule_hits(role: str, text: str, rule: str) -> None:
    assert rule in hits(role, text)


@pytest.mark.parametrize(("role", "text", "rule"), NEGATIVE)
def test_rule_stays_quiet(role: str, text: str, rule: str) -> None:
    assert rule not in hits(role, text)


def test_examples_cover_every_rule_both_ways() -> None:
    assert {r for *_, r in POSITIVE} == set(RULE_IDS) - {"copies_opinion", "repeated_question"}
    assert {r for *_, r in NEGATIVE} >= set(RULE_IDS) - {"copies_opinion", "repeated_question"}


def test_copies_opinion_needs_most_words_from_one_opinion() -> None:
    copy = "Is the lonely old fisherman on a grey beach a picture of loss?"
    assert "copies_opinion" in hits("questioner", copy, opinions=OPINIONS)
    # its subject alone, without what the opinion says of it, checks what is there (labeling guide)
    subject = "Is there a lonely old fisherman on a grey beach?"
    assert "copies_opinion" not in hits("questioner", subject, opinions=OPINIONS)
    assert "copies_opinion" not in hits("questioner", copy)  # no opinions shown: nothing to copy
    assert "copies_opinion" not in hits("questioner", "Is the fisherman holding a net?", opinions=OPINIONS)
    assert "copies_opinion" not in hits(
        "questioner", "What is the sea like near the boats?", opinions=OPINIONS
    )


def test_repeated_question_compares_with_earlier_questions_only() -> None:
    history = [
        {"role": "questioner", "text": "What colour is the sky?"},
        {"role": "answerer", "text": "The sky is pale blue with a few clouds over the hills."},
    ]
    assert "repeated_question" in hits("questioner", "What is the color of the sky?", history=history)
    assert "repeated_question" not in hits("questioner", "What colour is the dress?", history=history)
    # words from the answer do not count: asking about the clouds is new
    assert "repeated_question" not in hits(
        "questioner", "Are the clouds over the hills dark?", history=history
    )
    assert "repeated_question" in hits("questioner", "Why?", history=[{"role": "questioner", "text": "why?"}])


@pytest.mark.parametrize(
    ("earlier", "question"),
    [
        ("Is anyone on the shore?", "Are there any people on the shore?"),  # anyone / people
        ("What is the main colour of the sea?", "What colour is the ocean mainly?"),  # hedge, synonym
        ("What is the butcher wearing?", "What clothes does the butcher have on?"),
        ("What time of day is it?", "What time is it in the painting?"),
        ("What is the dog looking at?", "What is the dog staring at?"),
        ("What is the shepherd carrying?", "What does the shepherd hold?"),
        ("Is there a window in the room?", "Does the room have a visible window?"),
        ("What is the ship like?", "Can you describe the ship?"),  # a request asks "what"
    ],
)
def test_repeated_question_sees_rewordings(earlier: str, question: str) -> None:
    history = [{"role": "questioner", "text": earlier}, {"role": "answerer", "text": "A long answer."}]
    assert "repeated_question" in hits("questioner", question, history=history)


@pytest.mark.parametrize(
    ("earlier", "question"),
    [
        ("What is she holding?", "What is he holding?"),  # another person
        ("What is the dog looking at?", "What is the dog doing?"),
        ("Is there a dog?", "What does the dog look like?"),  # one shared word, asked another way
        ("Is the sea calm?", "Is the sea calm near the shore?"),  # a narrower follow-up
        ("What is the man on the left drinking?", "What is the man on the right drinking?"),
        ("Is she indoors?", "Is she young?"),
    ],
)
def test_repeated_question_lets_new_questions_through(earlier: str, question: str) -> None:
    history = [{"role": "questioner", "text": earlier}]
    assert "repeated_question" not in hits("questioner", question, history=history)


def test_rules_only_apply_to_their_role() -> None:
    assert hits("answerer", "The sky is blue.") == set()  # a statement is fine from the answerer
    assert "not_a_question" in hits("questioner", "The sky is blue.")
    assert "short_answer" not in hits("questioner", "Why?")
    with pytest.raises(ValueError, match="role"):
        check("viewer", 1, "hello")


def test_action_follows_the_most_severe_hit() -> None:
    assert check("answerer", 1, "A grey horse stands in a muddy field.").action == "accept"
    warned = check("answerer", 1, "The painting is gloomy, with a grey horse in a muddy field.")
    assert warned.action == "warn" and [h.severity for h in warned.hits] == ["soft"]
    bounced = check("answerer", 1, "Yes")
    assert bounced.action == "bounce" and bounced.hits[0].message.startswith("Please answer")


def test_every_rule_has_explanation_and_valid_default_severity() -> None:
    assert [r.id for r in RULES] == list(RULE_IDS)
    hard = {r.id for r in RULES if r.default_severity == "hard"}
    assert hard == {
        "offensive",
        "greeting",
        "chat_language",
        "non_english",
        "asks_feelings",
        "not_a_question",
        "answer_is_question",
        "short_answer",
    }
    for rule in RULES:
        assert len(rule.explanation) > 30 and rule.roles


def test_config_enables_disables_and_changes_severity_and_thresholds() -> None:
    cfg = RulesConfig.model_validate(
        {
            "disabled": ["greeting"],
            "short_answer": {"min_words": 6},
            "imposes_emotion": {"severity": "hard", "message": "Describe, do not judge."},
        }
    )
    assert check("answerer", 1, "Hello", config=cfg).rule_ids == ["short_answer"]
    assert check("answerer", 1, "A red boat on water.", config=cfg).rule_ids == ["short_answer"]
    judged = check("answerer", 1, "The painting is depressing and cold.", config=cfg)
    assert judged.action == "bounce" and judged.hits[0].message == "Describe, do not judge."
    only = RulesConfig.model_validate({"enabled": ["offensive"], "offensive": {"use_model": False}})
    assert check("answerer", 1, "Yes", config=only).action == "accept"
    assert check("answerer", 1, "This is crap", config=only).rule_ids == ["offensive"]
    off = RulesConfig.model_validate({"short_answer": {"enabled": False}})
    assert check("answerer", 1, "Yes", config=off).action == "accept"
    extra = RulesConfig.model_validate({"offensive": {"extra_words": ["blah blah"], "use_model": False}})
    assert check("answerer", 1, "It is blah blah", config=extra).rule_ids == ["offensive"]
    # a plain dict works too (settings.rules as read from TOML)
    assert check("answerer", 1, "Yes", config={"disabled": ["short_answer"]}).action == "accept"


@pytest.mark.parametrize(
    ("raw", "bad_key"),
    [
        ({"short_answer": {"min_wrds": 3}}, "short_answer.min_wrds"),
        ({"shortanswer": {}}, "shortanswer"),
        ({"imposes_emotion": {"severity": "medium"}}, "imposes_emotion.severity"),
        ({"disabled": ["nonsense"]}, "disabled"),
        ({"copies_opinion": {"min_overlap": 2}}, "copies_opinion.min_overlap"),
    ],
)
def test_config_rejects_unknown_or_bad_keys_naming_them(raw: dict, bad_key: str) -> None:
    with pytest.raises(ValidationError) as info:
        RulesConfig.model_validate(raw)
    assert bad_key in str(info.value)


def test_settings_file_rules_table_feeds_rules_config(tmp_path, monkeypatch) -> None:
    path = tmp_path / "study.toml"
    path.write_text('study = "s1"\n[rules]\ndisabled = ["off_topic"]\n[rules.short_answer]\nmin_words = 5\n')
    monkeypatch.setenv("AVD_SETTINGS_FILE", str(path))
    cfg = RulesConfig.model_validate(Settings().rules)
    assert cfg.short_answer.min_words == 5 and not cfg.is_enabled("off_topic")
    assert RulesConfig.model_validate(tomllib.loads(path.read_text())["rules"]) == cfg


def test_check_many_and_check_dialog_agree_with_check() -> None:
    turns = [
        {"role": "questioner", "text": "Hello! What is the image about?"},
        {"role": "answerer", "text": "Yes"},
        {"role": "questioner", "text": "What colour is the horse?"},
        {"role": "answerer", "text": "The horse is chestnut brown with a white blaze."},
        {"role": "questioner", "text": "What is the colour of the horse?"},
        {"role": "answerer", "text": "You idiot, I just told you."},
    ]
    many = check_dialog(turns, OPINIONS)
    one_by_one = [
        check(t["role"], i // 2 + 1, t["text"], history=turns[:i], opinions=OPINIONS)
        for i, t in enumerate(turns)
    ]
    assert many == one_by_one
    assert [r.rule_ids for r in many] == [
        ["greeting", "generic_question"],
        ["short_answer"],
        [],
        [],
        ["repeated_question"],
        ["offensive"],
    ]
    messages = [{"role": t["role"], "round": 1, "text": t["text"]} for t in turns]
    assert check_many(messages) == [check(m["role"], 1, m["text"]) for m in messages]
    assert check_many([]) == []


def test_fast_profanity_scorer_equals_the_shipped_model() -> None:
    from profanity_check import predict_prob

    from server.rules.offensive import _score, model_input, model_scores

    assert _score is not None  # the shipped package still has the shape the scorer reads
    texts = [model_input(t.lower()) for *_, t, _r in POSITIVE + NEGATIVE] + ["", "fuck this shit", "zzzz qqq"]
    expected = predict_prob(texts)
    assert max(abs(_score(t) - float(p)) for t, p in zip(texts, expected, strict=True)) < 1e-9
    assert model_scores(["you are a moron"])[0] > 0.9 > model_scores(["a quiet harbour at dawn"])[0]


runner = CliRunner()


def test_cli_check_prints_one_line_per_input_and_errors_by_line(tmp_path) -> None:
    lines = [
        json.dumps({"role": "questioner", "round": 1, "text": "hi, how r u?"}),
        "{not json",
        json.dumps(
            {"role": "answerer", "round": 1, "text": "A tall pine tree stands on a cliff by the sea."}
        ),
        json.dumps({"role": "answerer", "text": 3}),
        "",
        json.dumps(
            {
                "role": "questioner",
                "round": 2,
                "text": "Where is the tree?",
                "history": [{"role": "questioner", "text": "Where is the tree?"}],
            }
        ),
    ]
    path = tmp_path / "m.jsonl"
    path.write_text("\n".join(lines) + "\n")
    result = runner.invoke(avd, ["rules", "check", "--jsonl", str(path)], env={"AVD_SETTINGS_FILE": ""})
    assert result.exit_code == 1, result.output
    out = [json.loads(x) for x in result.stdout.splitlines()]
    assert [o["line"] for o in out] == [1, 2, 3, 4, 6]
    assert out[0] == {"line": 1, "rules": ["greeting", "chat_language"], "action": "bounce"}
    assert "error" in out[1] and "JSON" in out[1]["error"]
    assert out[2] == {"line": 3, "rules": [], "action": "accept"}
    assert out[3]["error"].startswith("text:")
    assert out[4] == {"line": 6, "rules": ["repeated_question"], "action": "warn"}


def test_cli_check_uses_config_file_and_names_bad_keys(tmp_path) -> None:
    data = tmp_path / "m.jsonl"
    data.write_text(json.dumps({"role": "answerer", "round": 1, "text": "Yes"}) + "\n")
    good = tmp_path / "rules.toml"
    good.write_text('[rules.short_answer]\nseverity = "soft"\n')
    result = runner.invoke(avd, ["rules", "check", "--jsonl", str(data), "--config", str(good), "--explain"])
    assert result.exit_code == 0, result.output
    line = json.loads(result.stdout)
    assert line["action"] == "warn" and line["hits"][0]["severity"] == "soft"
    bad = tmp_path / "bad.toml"
    bad.write_text("[rules.short_answer]\nmin_wrds = 2\n")
    result = runner.invoke(avd, ["rules", "check", "--jsonl", str(data), "--config", str(bad)])
    assert result.exit_code == 2 and "rules.short_answer.min_wrds" in result.stderr
    missing = runner.invoke(avd, ["rules", "check", "--jsonl", str(tmp_path / "nope.jsonl")])
    assert missing.exit_code == 2 and "No such file" in missing.stderr


def test_evaluation_counts_and_docs_markers(tmp_path) -> None:
    records = [
        {"role": "answerer", "round": 1, "text": "Yes", "labels": ["short_answer"], "split": "dev"},
        {"role": "answerer", "round": 1, "text": "A red barn.", "labels": ["short_answer"], "split": "dev"},
        {"role": "answerer", "round": 1, "text": "No.", "labels": [], "split": "test"},
    ]
    data = tmp_path / "set.jsonl"
    data.write_text("\n".join(json.dumps(r) for r in records))
    reports = evaluate(load_labeled(data))
    assert reports["dev"].rules["short_answer"] == Counts(tp=1, fp=0, fn=1)
    assert reports["test"].rules["short_answer"] == Counts(tp=0, fp=1, fn=0)
    assert reports["all"].rules["short_answer"].precision == 0.5
    docs = tmp_path / "qc.md"
    docs.write_text(
        "# QC\nlead text\n<!-- rules-eval:start -->\nold\n<!-- rules-eval:end -->\nmore lead text\n"
    )
    write_docs(render_table(reports), docs)
    text = docs.read_text()
    assert "old" not in text and "| `short_answer` | hard | 2 | 1.00 | 0.50 |" in text
    assert text.startswith("# QC\nlead text\n") and text.endswith("more lead text\n")
    bad = tmp_path / "bad.jsonl"
    bad.write_text(json.dumps({**records[0], "labels": ["asks_feelings"]}))
    with pytest.raises(ValueError, match="never applies"):
        load_labeled(bad)


def test_evaluation_reports_each_numbered_batch_apart(tmp_path) -> None:
    records = [
        {"role": "answerer", "round": 1, "text": "Yes", "labels": ["short_answer"], "split": "dev"},
        {
            "role": "answerer",
            "round": 1,
            "text": "No.",
            "labels": ["short_answer"],
            "split": "test",
            "batch": 2,
        },
        {"role": "answerer", "round": 1, "text": "Maybe.", "labels": [], "split": "test", "batch": 3},
        {
            "role": "answerer",
            "round": 1,
            "text": "A red barn.",
            "labels": ["short_answer"],
            "split": "test",
            "batch": 3,
        },
    ]
    data = tmp_path / "set.jsonl"
    data.write_text("\n".join(json.dumps(r) for r in records))
    reports = evaluate(load_labeled(data))
    assert reports["batch 2"].rules["short_answer"] == Counts(tp=1, fp=0, fn=0)
    assert reports["batch 3"].rules["short_answer"] == Counts(tp=0, fp=1, fn=1)
    assert reports["test"].rules["short_answer"] == Counts(tp=1, fp=1, fn=1)
    table = render_table(reports)
    assert "| rule | batch 2 pos. | batch 2 P | batch 2 R | batch 3 pos. | batch 3 P | batch 3 R |" in table
    assert "| `short_answer` | 1 | 1.00 | 1.00 | 1 | 0.00 | 0.00 |" in table
    assert "- batch 3: 2 messages, 0 (0.0%) with exactly the labeled rules." in table
    assert "batch" not in render_table(evaluate(records[:1]))  # no numbered batch, no batch table
    bad = tmp_path / "bad.jsonl"
    bad.write_text(json.dumps({**records[1], "batch": "two"}))
    with pytest.raises(ValueError, match="batch"):
        load_labeled(bad)


def test_cli_evaluate_writes_table(tmp_path) -> None:
    data = tmp_path / "set.jsonl"
    data.write_text(
        json.dumps(
            {"role": "answerer", "round": 1, "text": "Yes", "labels": ["short_answer"], "split": "test"}
        )
    )
    docs = tmp_path / "qc.md"
    docs.write_text("<!-- rules-eval:start --><!-- rules-eval:end -->\n")
    result = runner.invoke(avd, ["rules", "evaluate", "--data", str(data), "--docs", str(docs)])
    assert result.exit_code == 0, result.output
    assert "| `short_answer` | hard | 0 | – | – | – | 1 | 1.00 | 1.00 | 1.00 |" in docs.read_text()
    no_markers = tmp_path / "plain.md"
    no_markers.write_text("nothing here\n")
    result = runner.invoke(avd, ["rules", "evaluate", "--data", str(data), "--docs", str(no_markers)])
    assert result.exit_code == 2 and "markers" in result.stderr


def test_docs_list_every_rule_with_its_explanation_and_severity() -> None:
    from server.settings import REPO_ROOT

    text = (REPO_ROOT / "docs" / "qc.md").read_text()
    section = text.split("<!-- rules:start -->", 1)[1].split("<!-- rules:end -->", 1)[0]
    for rule in RULES:
        assert f"| `{rule.id}` |" in section and rule.explanation in section, rule.id
        row = next(line for line in section.splitlines() if line.startswith(f"| `{rule.id}` |"))
        assert f"| {rule.default_severity} |" in row


# --- learned classifiers (server/rules/learned.py): rule hit OR classifier probability >= threshold ---

NO_CLASSIFIERS = RulesConfig(classifier=False)
# Wordings the phrase lists miss and the classifiers catch (none of them is in the training files).
LEARNED_POSITIVE = [
    ("answerer", "I am sipping lemonade on my balcony right now.", "off_topic"),
    ("questioner", "Is the harbour scene a pleasant one?", "asks_feelings"),
    ("questioner", "Give me a general sense of everything in it.", "generic_question"),
    ("answerer", "It's a delightful painting, the goats are dancing.", "imposes_emotion"),
]
# Near misses the classifiers must leave alone.
LEARNED_NEGATIVE = [
    ("answerer", "The boy in the painting is eating a sandwich.", "off_topic"),
    ("questioner", "Is it raining on the village in the painting?", "off_topic"),
    ("answerer", "The grocer is old and has a grey beard.", "offensive"),
    ("questioner", "Does the goat look cheerful?", "asks_feelings"),
    ("questioner", "Is the orchard full of apple trees?", "asks_feelings"),
    ("questioner", "What is the shepherd holding in his hand?", "generic_question"),
    ("answerer", "The goats are dancing around a small fire.", "imposes_emotion"),
    ("answerer", "The shepherd looks relaxed, lying in the grass.", "imposes_emotion"),
]


@pytest.mark.parametrize(("role", "text", "rule"), LEARNED_POSITIVE)
def test_classifier_catches_wordings_the_rule_misses(role: str, text: str, rule: str) -> None:
    assert rule not in hits(role, text, config=NO_CLASSIFIERS)
    assert rule in hits(role, text)


# The offensive classifier was off by default in sessions 15-16 (re-tuned with batch 21 it found no
# insult the rule misses within the precision limits); re-tuned with batches 22-23 in session 17 it is
# on again at 0.52. A study can switch it off, or set its threshold.
OFFENSIVE_BY_CLASSIFIER = (
    "answerer",
    "The grocer is an ugly old troll with a face like a boot.",
    "offensive",
)
OFFENSIVE_ON = {"offensive": {"classifier_threshold": 0.52}}


def test_the_offensive_classifier_runs_when_a_study_sets_its_threshold() -> None:
    role, text, rule = OFFENSIVE_BY_CLASSIFIER
    assert rule not in hits(role, text, config={"offensive": {"classifier": False}})
    assert rule in hits(role, text, config=OFFENSIVE_ON)


@pytest.mark.parametrize(("role", "text", "rule"), LEARNED_NEGATIVE)
def test_classifier_leaves_near_misses_alone(role: str, text: str, rule: str) -> None:
    assert rule not in hits(role, text)


def test_classifiers_are_switched_off_by_settings_globally_or_per_rule() -> None:
    role, text, rule = LEARNED_POSITIVE[0]
    assert rule in hits(role, text, config={})
    assert rule not in hits(role, text, config={"classifier": False})
    assert rule not in hits(role, text, config={rule: {"classifier": False}})
    assert rule not in hits(role, text, config={rule: {"classifier_threshold": 0.999}})
    # switching one rule's classifier off leaves the others on
    q_role, q_text, q_rule = LEARNED_POSITIVE[1]
    assert q_rule in hits(q_role, q_text, config={rule: {"classifier": False}})
    # a disabled rule runs no classifier either
    assert rule not in hits(role, text, config={"disabled": [rule]})
    cfg = RulesConfig.model_validate({"offensive": {"classifier_threshold": 0.9}, "not_a_question": {}})
    assert cfg.classifier_threshold("offensive") == 0.9
    assert cfg.classifier_threshold("not_a_question") is None  # no tuned threshold: off unless set
    assert cfg.classifier_threshold("greeting") is None  # rules without a classifier
    assert NO_CLASSIFIERS.classifier_threshold("offensive") is None
    with pytest.raises(ValidationError, match="offensive.classifier_threshold"):
        RulesConfig.model_validate({"offensive": {"classifier_threshold": 1.5}})
    with pytest.raises(ValidationError, match=r"greeting\.classifier"):
        RulesConfig.model_validate({"greeting": {"classifier": False}})  # greeting has none


def test_a_hard_rule_hit_found_only_by_its_classifier_warns_unless_told_to_bounce() -> None:
    """Classifiers are less sure than the rules' own detectors: alone they warn (and flag)."""
    role, text, rule = OFFENSIVE_BY_CLASSIFIER
    alone = check(role, 2, text, config=OFFENSIVE_ON)
    assert alone.rule_ids == [rule] and alone.action == "warn"
    assert alone.hits[0].severity == "soft"
    strict = check(role, 2, text, config={rule: {**OFFENSIVE_ON[rule], "classifier_bounces": True}})
    assert strict.action == "bounce" and strict.hits[0].severity == "hard"
    # the rule's own detector still bounces, classifier or not
    assert check(role, 2, "The shopkeeper is a fucking idiot.").action == "bounce"
    # a soft rule's classifier hit stays soft either way
    q_role, q_text, q_rule = LEARNED_POSITIVE[0]
    assert check(q_role, 2, q_text, config={q_rule: {"classifier_bounces": True}}).action == "warn"


def test_cli_check_and_bulk_checks_use_the_classifiers_as_the_chat_does(tmp_path) -> None:
    role, text, rule = LEARNED_POSITIVE[0]
    line = json.dumps({"role": role, "round": 2, "text": text})
    data = tmp_path / "in.jsonl"
    data.write_text(line + "\n")
    out = runner.invoke(avd, ["rules", "check", "--jsonl", str(data)])
    assert out.exit_code == 0 and rule in json.loads(out.stdout)["rules"]
    cfg = tmp_path / "rules.toml"
    cfg.write_text("[rules]\nclassifier = false\n")
    out = runner.invoke(avd, ["rules", "check", "--jsonl", str(data), "--config", str(cfg)])
    assert out.exit_code == 0 and rule not in json.loads(out.stdout)["rules"]
    turns = [{"role": r, "text": t} for r, t, _ in LEARNED_POSITIVE if r == "answerer"]
    assert check_dialog(turns) == [
        check(t["role"], 1, t["text"], history=turns[:i]) for i, t in enumerate(turns)
    ]


def test_training_is_deterministic_and_matches_the_tuned_thresholds() -> None:
    import os
    import subprocess
    import sys

    from server.rules import learned, tuned
    from server.settings import REPO_ROOT

    records = learned.load_training()
    # the shipped thresholds were chosen for exactly these training lines and this model shape
    assert learned.digest(records) == tuned.TUNED_ON, (
        "training data changed: python -m server.rules.tune --write"
    )
    small = records[:400]
    first, second = learned.train(small), learned.train(small)
    assert first == second and first.fingerprint() == second.fingerprint()
    # ... also in another process, whose string hashing (and so the order of sets) differs
    code = (
        "from server.rules import learned; print(learned.train(learned.load_training()[:400]).fingerprint())"
    )
    env = {**os.environ, "PYTHONHASHSEED": "12345"}
    out = subprocess.run([sys.executable, "-c", code], cwd=REPO_ROOT, env=env, capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == first.fingerprint()
    # a different training set gives a different model
    assert learned.train(records[:300]).fingerprint() != first.fingerprint()


def test_evaluation_judges_training_lines_by_models_that_did_not_see_them() -> None:
    from server.rules import learned, tune

    pool = learned.load_training()[:500]
    records = [pool[3], pool[10], {"role": "answerer", "round": 1, "text": "A brand new line.", "labels": []}]
    chosen = tune.out_of_fold(records, pool)
    for record, model in zip(records[:2], chosen, strict=False):
        fold = learned.group_of(record, tune.FOLDS)
        without = [r for r in pool if learned.group_of(r, tune.FOLDS) != fold]
        assert model.digest == learned.digest(without) and record in pool and record not in without
    assert chosen[2] is learned.default_model()  # not a training line: the shipped model judges it
    results = tune.check_cross_validated(records, RulesConfig(), pool=pool)
    assert [r.rule_ids for r in results] == [
        check_many([record], model=model)[0].rule_ids for record, model in zip(records, chosen, strict=True)
    ]


def test_prepare_trains_only_what_the_configuration_uses() -> None:
    from server.rules import learned, prepare

    learned.default_model.cache_clear()
    prepare({"classifier": False})
    assert learned.default_model.cache_info().currsize == 0
    prepare({})
    assert learned.default_model.cache_info().currsize == 1
