"""Chat/IM language and non-English messages: the dataset is meant to be plain, grammatical English."""

from __future__ import annotations

import re

from server.rules import text as T
from server.rules.base import ROLES, Context, Rule
from server.rules.rule_configs import ChatLanguageConfig, NonEnglishConfig  # noqa: F401 (re-exported)

# Whole tokens only, so "u-shaped", "you" or "rest" never match "u" or "r".
IM_TOKENS = frozenset(
    """
    u r ur ure r8 plz pls plse plox thx thnx thanx tnx ty tysm lol lolz lmao lmfao rofl omg omfg gr8 idk
    idc btw cuz coz bcoz becuz bcuz cos wat wut wht tht dat dis ppl smth sth nvm imo imho tbh afaik np
    jk brb ttyl sup wassup wazzup whassup
    xd xoxo 2day 2moro 2morrow b4 l8r 4u gud luv kk k ya yea yup nah gonna wanna
    gotta dunno kinda sorta ok-ish hmu ikr ofc rly srsly prolly msg txt bff fyi asap wtf stfu smh
    lil ngl cya tbf istg ily tho
    wdym wots wot ffs lmk rn hbu wbu wyd irl afk omw yw abt thnks tq ikr idts ttys bbl gtg g2g wats wuts
    vc vcs fr sry wat's wot's wut's
    """.split()
) - {"yup", "nah", "ya", "yea", "kinda", "sorta", "gonna", "wanna", "gotta", "ok-ish"}
# Spoken or dialect spellings ("Dunno, mate.", "cos the telly's broken", "Wha dat?") are how people talk,
# not texting shortcuts: the labeled batches never count one alone as chat language.
IM_TOKENS = IM_TOKENS - {"dunno", "cos", "dat"}
# Letters of initials ("R.M.", "'K.L.'") and a capital letter naming a shape ("U shapes", "a U turn")
# stand for no "r", "k" or "u".
_INITIALS = re.compile(r"\b[A-Z]\.(?: ?[A-Z]\.)+|\b[A-Z](?= ?-?(?:shaped?|shapes|turns?|bends?)\b)")
# IM tokens that are also Dutch or Afrikaans words ("Wat is de sfeer?"): foreign in a foreign message.
_ALSO_DUTCH = frozenset({"wat"})
# "fr" for "for real" is written in lower case and never closes an abbreviation with a full stop.
_FOR_REAL = re.compile(r"(?<![\w'])fr(?![\w'.])")
# Korean consonants or vowels standing alone, doubled ("ㅋㅋ" laughter, "ㅎㅎ", "ㅠㅠ" tears): chat
# spelling, never Korean prose, which writes whole syllable blocks.
_JAMO_RUN = re.compile(r"[\u3131-\u318e]{2,}")
# Letters repeated three or more times ("sooo", "yesss"); Roman numerals (XIII) are not chat.
_REPEAT = re.compile(r"([a-z])\1\1")
_ROMAN = re.compile(r"^[ivxlcdm]+$")
# "!!!", "???" and "?!?"; a doubled question mark ("how big is it??") is chat style too, a doubled
# "!!" after a word is left alone (the labeled set does not count "Hello!!" as chat language).
_PUNCT_RUN = re.compile(r"[!?]{3,}|\?\?")
# Laughter spelt out ("haha", "hehehe", "lolol"): chat, unlike a single "Ha,".
_LAUGH = re.compile(r"^(?:(?:ha){2,}h?|(?:he){2,}h?|(?:hi){3,}|lo(?:lo)*l|a?ha(?:ha)+|bahaha\w*)$")
_EMOTICON = re.compile(
    r"(?:^|\s)[:;=8][\-']?[)(dpo3/|\\\]\[*]+(?=\s|$)|<3|\bx-?d\b|[\U0001F300-\U0001FAFF\u2600-\u27BF]"
)


# "n" for "and" between two words ("black n white"), "y/n" for "yes or no", "w/" and "w/o" for "with"
# and "without" before a word ("a man w/ a cart").
_AND_N = re.compile(
    r"(?<=[a-z])(?<!letter)(?<!\ban)(?<!\bthe) n (?=[a-z])|\b[yY]/[nN]\b|(?<![\w/])[wW]/[oO]? (?=[a-z])"
)
# Keyboard mashing ("jjjjj kkkkl"): words without a vowel, other than the interjections that have none
# ("hmm", "mhm", "shh", "pfft", "brr").
_VOWELLESS = re.compile(r"^[^aeiouy\W\d_]{3,}$")
_INTERJECTION = re.compile(
    r"^(?:h*m+(?:h+m+)*|z+|b+r+|g+r+|s+h+|p+s+t+|t+s+k*|h+r+m+p+h+|p+f+t*|n+t+h|c+h+|x+)$"
)


def is_mash(words: list[str]) -> bool:
    """Every word is a vowelless run of letters that is no interjection ("jjjkkk hhh")."""
    return bool(words) and all(
        _VOWELLESS.match(w) and not _INTERJECTION.match(w) and w not in IM_TOKENS for w in words
    )


# "af" closing a clause ("boring af") and "tf" after a question word ("how tf"): texting shorthand that
# as whole tokens would also hit an "AF" or "TF" painted on a sign.
_AF_TF = re.compile(
    r"\b(?:boring|depressing|pale|creepy|ugly|weird|scary|dark|cold|hot|sad|cute|pretty|tired|bored|done|"
    r"slow|hard|annoying|gross|huge|big|tiny|old|expensive|cheap|long|confusing|cool|funny|wild|messy|dead|"
    r"real|chill|sketchy|extra|basic|bright|empty|crowded|busy|bleak|grim|gloomy|sus|fake|lame|stupid|dumb|"
    r"fat|rich|broke|hungry|sleepy|bad|good|nice|fancy|random|trippy|dope|lit) af"
    r"(?=\s*(?:[.,!?;]|$| (?:and|but|lol|tbh|ngl|bro|man|dude|honestly)\b))"
    r"|\b(?:what|how|why|who|where) tf\b"
)


# "d" for "the" after a preposition or verb ("where is d skull", "with d torch"), not "vitamin D".
_D_FOR_THE = re.compile(
    r"\b(?:is|are|in|on|at|of|with|to|from|does|do|did|and|by|near|behind|under|over|about|for|see) d "
    r"(?!day\b)[a-z]{3,}"
)


def _foreign(ctx: Context) -> bool:
    """The non_english detector's verdict with its default settings."""
    return detect_non_english(ctx, _NON_EN_CFG)


def _only_initials(text: str, words: list[str]) -> bool:
    """Every IM token is a letter of initials or of a shape's name ("R.M.", "U shapes"), not a word."""
    found = IM_TOKENS.intersection(words)
    if not found or any(len(w) > 1 for w in found) or not any(c.isupper() for c in text):
        return False
    letters = [m.group(0) for m in _INITIALS.finditer(text)]
    if not letters:
        return False
    # each IM letter must occur in the message no more often than inside initials or shape names
    named = [c.lower() for chunk in letters for c in chunk if c.isalpha()]
    return all(words.count(w) <= named.count(w) for w in found)


def detect_chat_language(ctx: Context, cfg: ChatLanguageConfig) -> bool:
    words, lower = ctx.words, ctx.lower
    if "d" in ctx.wordset and _D_FOR_THE.search(lower):
        return True
    if ("af" in ctx.wordset or "tf" in ctx.wordset) and _AF_TF.search(lower):
        return True
    if (" n " in ctx.text or "/" in lower) and _AND_N.search(ctx.text):
        return True
    # whole tokens only: the "u" of "u-shaped" is no IM spelling
    extra = cfg.extra_tokens
    im = not IM_TOKENS.isdisjoint(words) or bool(extra and not set(extra).isdisjoint(words))
    if im and not extra and _only_initials(ctx.text, words):
        im = False
    if im and "fr" in words and IM_TOKENS.intersection(words) == {"fr"} and not _FOR_REAL.search(ctx.text):
        im = False  # "Fr. Damien", "FR": a priest's title or French, not "for real"
    # "wat" in a Dutch sentence is Dutch: leave that message to non_english
    if (
        im
        and not (len(words) >= 4 and _english_ratio(words) < 0.5)
        and not afrikaans_dutch(words)
        and not (_ALSO_DUTCH.issuperset(IM_TOKENS.intersection(words)) and _foreign(ctx))
    ):
        return True
    if cfg.check_repeats:
        if (
            _REPEAT.search(lower)
            and any(_REPEAT.search(w) and not _ROMAN.match(w) for w in words)
            and not is_mash(words)  # keyboard mashing is no English at all: non_english
        ):
            return True
        if _PUNCT_RUN.search(ctx.text):
            return True
    # every _LAUGH word holds "haha", "hehe", "lol" or "hihi" (a bare "he" is in most messages: "the");
    # a "hihihi" is laughter on its own, with no "ha" or "he" anywhere in the message
    if ("haha" in lower or "hehe" in lower or "lol" in lower or "hihi" in lower) and any(
        _LAUGH.match(w) for w in words
    ):
        return True
    if not lower.isascii() and _JAMO_RUN.search(lower):
        return True
    if not cfg.check_emoticons:
        return False
    if lower.isascii():
        if not (":" in lower or ";" in lower or "=" in lower or "<" in lower or "8" in lower) and (
            "xd" not in ctx.wordset
        ):
            return False  # no emoji, no emoticon punctuation: skip the regex
        if not _may_hold_emoticon(lower):
            return False
    return bool(_EMOTICON.search(lower))


def _may_hold_emoticon(lower: str) -> bool:
    """False only when an ASCII text cannot match _EMOTICON: its eyes open the text or follow a space
    (the normalised text has no other white space), else it needs a "<3" or an "xd"/"x-d"."""
    return (
        "<3" in lower
        or "xd" in lower
        or "x-d" in lower
        or lower[:1] in _EYES
        or any(" " + eyes in lower for eyes in _EYES)
    )


_EYES = frozenset(":;=8")


_NON_EN_CFG = NonEnglishConfig()


def detect_non_english(ctx: Context, cfg: NonEnglishConfig) -> bool:
    words = ctx.words
    letters = sum(len(w) for w in words)
    if letters == 0:
        return False
    if not ctx.lower.isascii():
        non_ascii = sum(1 for w in words for ch in w if ord(ch) > 127 and ch.isalpha())
        if letters >= 3 and non_ascii / letters > cfg.max_non_ascii_ratio:
            return True
    if "¿" in ctx.text or "¡" in ctx.text:  # Spanish punctuation
        return True
    if not ctx.lower.isascii() and _foreign_letters(ctx.text, words):
        return True
    if is_mash(words):
        return True
    if afrikaans_dutch(words) or irish(words):
        return True
    if "'" in ctx.lower and _elided(words):
        return True
    if foreign_courtesy(words):
        return True
    tokens = [w for w in words if not w.isdigit()]
    if len(tokens) < cfg.min_words:
        return _short_foreign(ctx.text, tokens)
    english = _english_ratio(tokens)
    foreign = sum(1 for w in tokens if w in _FUNCTION_FOREIGN)
    if foreign >= 2 and foreign > sum(1 for w in tokens if w in T.STOPWORDS):
        return True
    if english < cfg.min_english_ratio or (foreign >= 2 and foreign * 2 >= len(tokens) - foreign):
        return True
    # half English by accident ("Czy pies jest czarny?": "pies", "jest"), with a distinctive foreign word
    return english <= 0.5 and any(w in _SHORT_FOREIGN and w not in _WEAK_FOREIGN for w in tokens)


# Letters of other Latin alphabets that no English word or common loanword has (unlike é, ï, ç, ñ).
_NEVER_ENGLISH = frozenset("ıęąłśźżőűřěůğşăţțșđħ")


def _foreign_letters(text: str, words: list[str]) -> bool:
    """A word in lower case spelt with a letter English never uses ("Co trzyma w ręce?"), unless it is
    one foreign word quoted in a long English sentence."""
    original = T.words(text)
    # a capital after the first word marks a name ("Lech Wałęsa")
    marked = [
        w for i, w in enumerate(original) if not (i and w[0].isupper()) and not _NEVER_ENGLISH.isdisjoint(w)
    ]
    if not marked:
        return False
    return len(words) < 6 or _english_ratio(words) < 0.8


# An article, pronoun or preposition of French or Italian elided before a vowel ("l'acqua", "dov'è",
# "c'est", "qu'il"); English elides only in "o'clock" and in names, which are capitalised.
_ELISION = re.compile(r"^(?:l|d|c|j|m|n|s|t|qu|dell|all|dall|nell|sull|dov|com|un|quest|quell)'[a-zà-ÿ]")


def _elided(words: list[str]) -> bool:
    """A foreign elision, and at most half of the words English."""
    return any(_ELISION.match(w) for w in words) and _english_ratio(words) <= 0.5


# Greetings, thanks and farewells of other languages ("Ciao ciao!", "Xin chào!", "Slán abhaile!",
# "Danke schön, tschüss"). A message made of nothing else is not English (the labeled batches agree);
# one beside an English word ("Cheers, totsiens!", "Hola, is the fox asleep?") is. Tagalog and Hindi
# courtesies ("salamat po") are left out: the batches count them as Filipino and Indian English.
_FOREIGN_COURTESY = frozenset(
    """
    ciao salve buongiorno buonasera buonanotte arrivederci grazie mille prego tante
    hola adiós adios hasta luego pronto mañana manana buenos buenas días dias tardes noches gracias muchas
    chao chau bonjour bonsoir salut merci au revoir beaucoup bonne journée journee soirée soiree à bientôt
    guten tag morgen abend tschüss tschüs tschuess danke schön schoen vielen dank auf wiedersehen servus
    moin olá ola oi tchau obrigado obrigada tudo bem bom dia boa tarde noite até ate logo
    xin chào cảm ơn tạm biệt biet slán slan abhaile leat duit dhuit raibh maith agat
    totsiens dankie baie goeiemôre goeie môre tot ziens doei je wel hoi hej hei tack takk
    konnichiwa konnichiha arigato arigatou sayonara ohayo ohayou nǐ hǎo ni hao xièxie xiexie zàijiàn zaijian
    karibu asante sana kwaheri sawa jambo habari tutaonana nawzajem wzajemnie dziękuję dziekuje dzięki
    bardzo miłego milego dnia widzenia zobaczenia cześć czesc dobranoc
    diolch iawn hwyl fawr khodahafez efcharisto efharisto
    """.split()
)
# Courtesy words that are English words or letters too: they join a foreign greeting but never make one.
_COURTESY_ALSO_ENGLISH = frozenset(
    "au à tag morgen dank je wel hoi hei ni oi logo salve pronto dia bom tante sana".split()
)


def foreign_courtesy(words: list[str]) -> bool:
    """Every word a foreign greeting, thanks or farewell, one of them not also English ("Ciao ciao!")."""
    return (
        bool(words)
        and len(words) <= 6
        and all(w in _FOREIGN_COURTESY for w in words)
        and any(w not in _COURTESY_ALSO_ENGLISH for w in words)
    )


# Foreign words that are also an interjection, a name's particle or a letter in English ("ha", "de").
_SUPERLATIVE = re.compile(r"(?<!fort)(?<!pian)(?:issim|ísim)[oaie]s?$")
# Two-letter Tagalog and Hindi words that are also English letters, notes or abbreviations ("se" for
# south-east, "ko", "pa") are weak too: alone they do not make a short message foreign.
_WEAK_FOREIGN = frozenset(
    "de la un e y o ha el le il lo di du na sa ka ko mo pa se ki ke ba ni si ay ji".split()
)


# Question words, function words and greetings of languages the Romance and Germanic lists do not
# cover (Polish, Tagalog, Swahili, Malay/Indonesian, Hindi and Russian in Latin letters, Turkish,
# the Nordic languages), for short messages only; words that are also English ("is", "ya") are left out.
_MORE_FOREIGN = frozenset(
    """
    plusieurs couleur couleurs quelques
    jest nie tak czy jak się są ile jaki jaka jakie gdzie kto dlaczego bardzo tam dziękuję
    ano ang mga ng po ito yung siya sila wala meron saan ilan anong kulay naman kasi hindi opo sino bakit
    paano kamusta kumusta salamat ilang nasaan
    nini ndiyo hapana katika rangi gani kuna yupo wapi nani sana asante habari mtu watu
    apa ada yang dan ini itu warna berapa tidak dengan dia mereka siapa kenapa bagaimana sangat
    kya hai hain nahi nahin haan kaun kitne kitna kaisa kaise yeh woh aur bhi rang kahan kyun accha theek
    bir var kaç renk evet hayır nasıl neden çok kim
    och det är hvad vad jeg jag ikke inte hvor på som med hur vem
    skolko chto gde eto ochen kto
    presque noire noir blanc bleu bleue vert verte jaune marron gris grise foncé foncée claire plutôt plutot
    assez toujours negra blanca amarillo roja casi bastante oscuro oscura nera bianca giallo gialla rossa
    abbastanza scuro scura chiaro chiara schwarz weiß weiss blau grün gelb ziemlich dunkel preto preta branco
    branca vermelho vermelha amarelo amarela quase
    tudo bem você voce vc obrigado obrigada
    atá ata tá níl nil bhfuil phictiúr pictiúr bpictiúr pictiur dath conas cén mhéad mhead fheiceann agat
    nee neen geschlossen offen vielleicht gesloten misschien chiuso chiusa aperto aperta cerrado cerrada
    abierto abierta fermé fermée ouvert ouverte fechado fechada aberto aberta forse quizás quizas talvez sì
    """.split()
)
# Afrikaans and Dutch words that are no English ("Wat dink jy van die kuns?", "Hoe lyk die lug?"); "wat"
# and "die" are English-looking but count with one other of these.
_AFRIKAANS_DUTCH = frozenset(
    """
    wat hoe lyk jy jou dink lug kuns geskilder gesig regtig asemrowend groot hoekom hoeveel watter kleur
    kleure skildery prent foto daar hier nie ek julle hulle baie mooi lekker waar vir gaan doen sien ook
    welke zijn niet een veel heel goed sy hy ons wie dis dit kan jij je mensen schilderij kleuren zie
    geen nog heeft hebben wordt worden staat staan wees moet kyk leuk
    """.split()
)
_AF_ENGLISH = frozenset("wat die is in op van sy my kan dit we hier".split())


def afrikaans_dutch(words: list[str]) -> bool:
    """Two or more Afrikaans/Dutch words, at least one not also English-looking, making up a third
    of the message ("Wat is in die foto?", "Hoe groot is die silo's?")."""
    hits = [w for w in words if w in _AFRIKAANS_DUTCH or w == "die"]
    return len(hits) >= 2 and any(w not in _AF_ENGLISH for w in hits) and len(hits) * 3 >= len(words)


# Irish words that are no English ("Cad atá ar an bpictiúr?", "Conas atá an spéir?"); "an", "ar", "sa",
# "is" and "cad" are English-looking and count only beside one of the others.
_IRISH = frozenset(
    """
    atá tá níl bhfuil phictiúr pictiúr bpictiúr fheiceann conas cén mhéad dath agat aici aige láimh spéir
    sé sí mé tú é í orm liom breá go raibh maith agus fear bean cad an ar sa na
    """.split()
)
_IRISH_ENGLISH = frozenset("cad an ar sa na go is".split())


def irish(words: list[str]) -> bool:
    """Two or more Irish words, at least one not also English-looking, making up half of the message."""
    hits = [w for w in words if w in _IRISH]
    return len(hits) >= 2 and any(w not in _IRISH_ENGLISH for w in hits) and len(hits) * 2 >= len(words)


# The commonest function words of Tagalog and of Hindi in Latin letters (particles, case markers,
# pronouns, question words: "May aso po sa ilalim ng mesa", "Statue ka rang kya hai?"). Many are
# also in the noisy English frequency list ("sa", "ng", "po", "hai"), so unlike _MORE_FOREIGN they
# are kept even then; real English words ("may", "at", "me", "par", "to") are left out. They count
# only as a group: two of them, outnumbering the English function words, make a message foreign.
_TAGALOG_HINDI = frozenset(
    """
    ang ng mga sa na po ba ay si ni kay ito iyan iyon yung yun niya nila siya sila ako ikaw mo ko namin
    natin rin lang ano sino saan bakit paano ilan kailan nasa wala meron hindi opo naman kasi tapos kung
    dahil nga ba't anong ilang nasaan may-ari pong
    hai hain ka ki ke ko se mein kya nahi nahin aur bhi yeh woh kaun kitne kitna kitni kaisa kaisi kaise
    kahan kyun kyon tha thi hota hoti raha rahi rahe wala wali wale lekin kuch bahut ji dikh dikhta
    """.split()
)
# Foreign function words counted in messages of four words or more.
_FUNCTION_FOREIGN = T.FOREIGN_FUNCTION_WORDS | _TAGALOG_HINDI
_SHORT_FOREIGN = T.FOREIGN_FUNCTION_WORDS | (_MORE_FOREIGN - T.ENGLISH_WORDS) | _TAGALOG_HINDI
# Runs along one keyboard row ("asdfgh", "qwer"), forwards or backwards: no word of any language.
_ROWS: tuple[str, ...] = ("qwertyuiop", "asdfghjkl", "zxcvbnm")
_ROWS = (*_ROWS, *(r[::-1] for r in _ROWS))


def _keyboard_run(word: str) -> bool:
    return len(word) >= 4 and any(word in row for row in _ROWS)


def _short_foreign(text: str, tokens: list[str]) -> bool:
    """A message of 1-3 words in a foreign language written in ASCII ("muy bonito", "Très belle").

    Two foreign words suffice; one needs to be a distinctive one and at most half of the words
    English. A capitalised word after the first is taken for a name ("El Greco?") and spares it.
    Two or three words none of which is English ("Sembrano rilassati?"), or one English word among
    three beside a foreign one ("Hay un puente?"), are foreign too, and so is a run of keys.
    """
    if tokens and all(_keyboard_run(w) for w in tokens):
        return True
    foreign = [w for w in tokens if w in _SHORT_FOREIGN]
    if len(foreign) >= 2:
        return True
    if any(_SUPERLATIVE.search(w) for w in tokens):  # "bellissimo", "buenísima"
        return True
    if len(tokens) >= 2 and _unknown_words(text, tokens, foreign):
        return True
    if not foreign or foreign[0] in _WEAK_FOREIGN or _english_ratio(tokens) > 0.5:
        return False
    original = T.words(text)
    if len(original) != len(tokens):
        return True
    pairs = zip(original[1:], tokens[1:], strict=True)
    return not any(w[0].isupper() and t not in T.FOREIGN_FUNCTION_WORDS for w, t in pairs)


def _unknown_words(text: str, tokens: list[str], foreign: list[str]) -> bool:
    """No English word among 2-3, most ending in a, i, o or u (or one English word among three beside
    a foreign word of two letters or more), no name, and a word of four letters or more: a sentence
    of a language on no list."""
    ratio = _english_ratio(tokens)
    if ratio > 0 and not (len(tokens) == 3 and ratio <= 0.34 and any(len(w) >= 2 for w in foreign)):
        return False
    if not any(len(w) >= 4 for w in tokens):
        return False
    # rare English nouns ("Cypresses, aqueducts.") end in consonants; most of these languages' words
    # end in a vowel other than "e" ("vilivyovunjika", "rilassati")
    if ratio == 0 and sum(w[-1] in "aiou" for w in tokens) * 2 < len(tokens):
        return False
    # two loanwords can be an answer ("Lapis lazuli."); two unknown words asked are a question
    if len(tokens) == 2 and not text.rstrip().endswith("?"):
        return False
    original = T.words(text)
    return not any(w[0].isupper() for w in original[1:])


def _english_ratio(tokens: list[str]) -> float:
    """Share of the tokens that are common English words (or forms of them); IM spellings count."""
    if not tokens:
        return 1.0
    hits = sum(
        1
        for w in tokens
        if w in T.ENGLISH_WORDS or w in IM_TOKENS or (w not in T.FOREIGN_FUNCTION_WORDS and _english_form(w))
    )
    return hits / len(tokens)


_CONTRACTIONS = frozenset("s t re ve ll d m all em".split())


def _english_form(word: str) -> bool:
    """Inflections and contractions of listed words ("brushstrokes", "woman's", "don't")."""
    if "'" in word:  # an English word with a contraction ("woman's", "they've"); not "l'acqua"
        head, tail = word.split("'", 1)
        return head in T.ENGLISH_WORDS and (tail in _CONTRACTIONS or head == "o")
    if "-" in word:
        return all(part in T.ENGLISH_WORDS for part in word.split("-") if part)
    stem = T.stem(word)
    return stem in T.ENGLISH_WORDS or stem + "e" in T.ENGLISH_WORDS


RULES = [
    Rule(
        id="chat_language",
        roles=frozenset(ROLES),
        explanation=(
            "Please write in full words and plain sentences: no texting shortcuts such as 'u' or 'plz', "
            "stretched words ('sooo'), '!!!' or emoji."
        ),
        summary="IM spellings as whole tokens, letters repeated 3+ times, '!!!'/'???', emoticons and emoji.",
        config=ChatLanguageConfig,
        detect=detect_chat_language,
    ),
    Rule(
        id="non_english",
        roles=frozenset(ROLES),
        explanation="Please write in English; this study collects English conversations.",
        summary="Mostly non-Latin letters, or a message of 4+ words with too few common English words.",
        config=NonEnglishConfig,
        detect=detect_non_english,
    ),
]
