"""Offensive language: a word list for the unmistakable cases plus the shipped alt-profanity-check model.

The model (a linear classifier over word n-grams, shipped inside the package, no download) is
loaded once at import. It was trained on online comments, so words that are ordinary in art
descriptions ("a nude", "hell" in a Last Judgement, a "cock" crowing, an "ass" carrying Mary) or
that name identities ("a black man", "a gay couple") push it towards "offensive"; they are masked
before the model sees the text. Their abusive uses ("go to hell", "kiss my ass") are in the list.
"""

from __future__ import annotations

import math
import re
from collections.abc import Sequence

import profanity_check.profanity_check as _shipped
from profanity_check import predict_prob

from server.rules import language
from server.rules import text as T
from server.rules.base import ROLES, Context, Rule
from server.rules.rule_configs import OffensiveConfig  # noqa: F401 (re-exported)

_BLOCKLIST_WORDS = (
    r"f+u+c+k+\w*|motherf\w*|f\*+k|fck\w*|fuk\w*|wtf|stfu|gtfo|ffs|for f'?s sake|"
    r"shit\w*|bullshit|sh\*t|crap(?:py)?|"
    r"bitch\w*|bastards?|cunts?|whores?|sluts?|dick(?:head|heads|s)|cocksucker\w*|twats?|wankers?|"
    r"ass(?:hole|holes|hat|wipe)s?|dumbass\w*|jackass\w*|"
    r"retard(?:ed|s)?|idiots?|morons?|imbeciles?|"
    r"nigg\w*|fag(?:s|got\w*)?|spic|kike|chink|tranny|"
    # swearing in the languages workers switch into ("puta madre", "merde", "kurwa")
    r"putas?|putain|mierda|joder|co[nñ]o|cabr[oó]n\w*|pendej\w*|merde|connard\w*|salope|"
    r"schei(?:ss|ß)e|arschloch|cazz[oi]|vaffanculo|stronz[oi]|kurwa|blyat|bljat|blyad|bljad|pizdets|pizdec|"
    r"bhenchod|behenchod|godverdomme|verdomme|godverdorie|gottverdammt|verdammt|"
    r"madarchod|chutiya|putang ?ina|tangina|gago|porra|carajo|caralho|merda|foda-?se|fokken|fok|"
    r"piss(?:ed)? off|(?:taking|take|takes|takin'?|took) the piss|"
    r"screw (?:you|u|this|that|off)|suck(?:s)? (?:my|it)|shut (?:the \w+ )?up|"
    r"shut (?:your|ur) (?:mouth|face|trap|gob|pie ?hole)|watch (?:your|ur) mouth|"
    r"go to hell|hell (?:no|yes|yeah)|"
    r"damn(?:it| it| you)?|goddamn\w*|"
    r"i hate (?:you|u)|kiss my ass|your ass|kill (?:yourself|urself|yourselves)|kys|"
    r"can'?t (?:you|u) (?:even )?read|learn (?:how )?to read|use your (?:eyes|brain)"
)
# One top-level alternative per word ("\bwords?\b|\bother\b|..."), which finds the same texts as
# "\b(?:words?|other|...)\b": ``Context.finds`` then tries only the words whose letters are in the text.
_BLOCKLIST = re.compile(
    "|".join(rf"\b(?:{word})\b" for word in T.split_top(_BLOCKLIST_WORDS) or [_BLOCKLIST_WORDS])
)
# The phrases of the list that open with a choice of words ("how tf", "are you blind"), apart: in one
# regex with the words, each was tried at every word of every message (a third of the list's cost);
# here each runs only when the text holds a string it needs (``Context.finds``).
_BLOCKLIST_PHRASES = re.compile(
    # "how tf", "what tf"; "af" ("as f***") after an adjective: "pale af", "boring af" (not "reads AF")
    r"\b(?:what|how|why|who|where|the) tf\b"
    r"|\b(?:boring|depressing|pale|creepy|ugly|weird|scary|dark|cold|hot|sad|cute|pretty|tired|bored|done|"
    r"slow|hard|annoying|gross|huge|big|tiny|old|expensive|cheap|long|confusing|cool|funny|wild|messy|dead|"
    r"real|chill|sketchy|extra|basic|bright|empty|crowded|busy|bleak|grim|gloomy|sus|fake|lame|stupid|dumb|"
    r"fat|rich|broke|hungry|sleepy|bad|good|nice|fancy|random|trippy|dope|lit) af"
    r"(?=\s*(?:[.,!?;]|$| (?:and|but|lol|tbh|ngl|bro|man|dude|honestly)\b))\b"
    r"|\b(?:you|such a|what a) (?:\w+ )?(?:loser|jerk|clown)\b"
    r"|\b(?:what|who|where|why|how|whit|wat|wot|wha) the (?:hell|heck)\b"
    r"|\b(?:you|ur|u) dick\b"
    # the partner called blind or stupid without a swear word
    r"|\b(?:are|r) (?:you|u) (?:\w+ )?"
    r"(?:blind|deaf|stupid|dumb|dense|thick|brain-?dead|illiterate|senile|daft)\b"
    # ... and without the verb, as many Englishes ask: "you deaf ah?", "u blind or what", "You stupid?"
    r"|\b(?:you|u) (?:blind|deaf|stupid|dumb|dense|brain-?dead|illiterate|senile|daft)"
    r"(?= *(?:[?!.,]|$| (?:or|ah|eh|lah?|o|na|bro|man|mate)\b))"
    r"|\b(?:do|have) (?:you|u) (?:even )?(?:got |have )?(?:eyes|a brain)(?= *(?:[?!.,]|$))\b"
)
# Starred-out swearing, which needs one of the symbols: searched only in a text that has one.
_STARRED_SWEARING = re.compile(
    r"(?<!\w)(?:f|sh|s|b|c|a)[*#@$%]{2,}"  # "f***"
    r"|\b(?:f|sh|b|c|a|d|p|wh)[*#@$%]+(?:ck|t|tch|nt|ss|mn|re)\w*"  # one star inside ("f*ck", "sh*tty")
)

# A swear word with letters starred out anywhere ("b*stard", "a**hole", "sh!t"): each run of
# symbols may stand for any letters.
_STARRED_TOKEN = re.compile(r"[a-z]*[*#@$%!][a-z*#@$%!]*[a-z]+|[a-z]+[*#@$%]+[a-z*#@$%]*")
_SWEARS = (
    "fuck fucker fucking shit shitty bitch bastard cunt dick cock piss pissed whore slut twat wanker "
    "asshole arse arsehole damn crap prick bollocks bloody hell retard idiot moron bugger sod".split()
)


def _starred(lower: str) -> bool:
    """A token with symbols between letters whose letters fit a swear word ("b*stard")."""
    for token in _STARRED_TOKEN.findall(lower):
        if token.strip("*#@$%!").isalpha():
            continue  # "*important*", "wow!" : symbols only around the word
        shape = re.compile(re.sub(r"[*#@$%!]+", "[a-z]+", token) + r"(?:s|es|ed|ing|y)?")
        if any(shape.fullmatch(word) for word in _SWEARS):
            return True
    return False


# Insults without a swear word, tried only when one of _INSULT_TRIGGERS is in the message. Workers
# call the partner, the question or a depicted person names ("dimwit", "old hag", "brat"), call the
# partner slow, lazy or brainless, equate a person with an animal ("the butcher is a greasy pig"),
# and swear mildly ("bloody lonely", "flat as hell", "the painter sucked"). Words with an ordinary
# sense in art descriptions ("a tailor's dummy", "struck dumb", "a pig in a pen", "a lame beggar",
# "gives me the creeps") are only taken in their abusive frames.
_INSULT_NOUN = (
    r"dimwits?|nitwits?|halfwits?|numbskulls?|numpty|numpties|muppets?|dolts?|slowpokes?|meatheads?|"
    r"fatso|slobs?|hags?|geezers?|brats?|perverts?|weirdos?|freaks?|scum|slags?|hookers?|dumbo|cretins?|"
    r"twits?|gits?|airheads?|bimbos?|hicks?|snobs?|screw-ups?|losers?|jerks?(?! of)|"
    r"(?<!the )creeps?(?! (?:you|me|us|them|him|her|people) out)|"
    r"(?<!'s )dumm(?:y|ies)|oafs?|twerps?|drongos?|yokels?|windbags?|lard-?arse|lardass|prudes?|"
    r"drama queens?|smartass(?:es)?|smart-?arses?|know-it-alls?|prats?|pillocks?|plonkers?|tossers?|"
    r"berks?|bellends?|knobheads?|ponces?|poncy|wankers?|scumbags?|sleazebags?|dirtbags?|lowlifes?|"
    r"nincompoops?|ignoramus(?:es)?|knuckleheads?|boneheads?|blockheads?|"
    r"doofus(?:es)?|dingbats?|ninnies|ninny|douche(?:bag)?s?|skanks?|wusses|wuss|crybab(?:y|ies)|"
    r"slimeballs?|sleazeballs?|scrotes?|mingers?|munters?|buggers?|sodding|bleeding idiots?|"
    r"spaz|spastics?|bogans?|yobs?|yobbos?|louts?|chavs?|cheapskates?|skinflints?|tightwads?|"
    r"dipsticks?|eejits?|gobshites?|wazzocks?|dunces?|dorks?|dweebs?|bozos?|galahs?"
)
_CONTEMPT_ADJ = (
    r"stupid(?!-)\w*|(?<!struck )(?<!deaf and )dumb(?:er|est)?(?!-)|idiotic|moronic|brainless|"
    r"brain-dead|pathetic|useless|clueless|imbecilic|fugly|pervy|dopey|scabby|snotty|lice-ridden|"
    r"pig-faced|ham-fisted"
)
# Animals and figures that insult when said of a person ("the bride is a pig", "a wrinkled old bat"),
# tried only when the message also names a person: a pig in a pen or a fairy-tale witch is content.
_BEAST = (
    r"pigs?|cows?|goats?|rats?|bats?|weasels?|chimps?|monkeys?|apes?|animals|goblins?|witch(?:es)?|"
    r"trolls?|lumps?|bags?|tramps?|bums?|slugs?|toads?|hippos?|whales?"
)
# The animal ends a phrase ("a pig in a white dress", "a pig of a man"), not "a pig farmer".
_BEAST_END = r"(?=\s*(?:[.,!?;:]|$| (?:in|on|at|by|with|and|or|of a|of an|who|that|than|for|from|like)\b))"
# What only people do: an animal doing it is a person called that animal.
_HUMAN_ACTS = frozenset(
    """
    laughing talking smiling shouting yelling gossiping cutting selling wearing holding reading writing
    chatting smoking preaching counting serving cooking dancing singing painting
    """.split()
)
_BEASTLY = re.compile(
    # the person is, or looks like, the animal: "the king is a fat pig", "they look like rats"
    r"(?: is| are| was| were| looks? like| look like|\b(?:he|she|they|you|that|who)(?:'s|'re)) "
    r"(?:just |such |a |an |some |total |complete |real |right |pack of |bunch of |herd of )*"
    r"(?:(?:fat|ugly|greasy|filthy|dirty|old|little|cheap|miserable|wrinkled|drunken|lazy|inbred|smug|sly|"
    r"slimy|sneaky|greedy|pompous|"
    rf"stuck-up|smelly|nasty|mangy) )*(?:{_BEAST}){_BEAST_END}"
    # a contemptuous adjective before the animal: "is the ugly cow his wife?"
    r"|\b(?:ugly|greasy|filthy|wrinkled|miserable|drunken|inbred|smelly|mangy) (?:old |little |fat )?"
    rf"(?:{_BEAST})(?:{_BEAST_END}|(?= (?:his|her|their|the|is|was)\b))"
    # "a fat cow of a woman", "that pig of a husband": the animal made of a person
    rf"|\b(?:{_BEAST}) of an? (?:\w+ )?(?:man|woman|wife|husband|person|girl|boy|guy|lady|fellow|king|"
    r"queen|mother|father|bride|groom|priest|child|kid)\b"
    # an animal doing what only people do: "the old cow laughing at him", "a fat pig cutting a pig"
    r"|\b(?:the|that|this|those|these|an?) (?:(?:old|fat|ugly|silly|stupid|greedy|lazy|filthy|smelly) )+"
    rf"(?:{_BEAST}) (?:is |are |was |were )?(?:{'|'.join(sorted(_HUMAN_ACTS))})\b"
)


def _forms(alternation: str) -> frozenset[str]:
    """The words an alternation of "pig", "pigs?" and "witch(?:es)?" matches: the trigger words of
    a pattern, read off it so the two cannot drift apart."""
    forms = set()
    for alt in alternation.split("|"):
        word = alt.removesuffix("s?").removesuffix("(?:es)?")
        forms.add(word)
        if word != alt:
            forms.add(word + ("es" if alt.endswith("(?:es)?") else "s"))
    return frozenset(forms)


_BEAST_WORDS = _forms(_BEAST)
_PERSON_WORDS = frozenset(
    """
    man men woman women guy guys lady ladies girl girls boy boys kid kids child children king queen
    bride groom wife husband mother father mum mom dad son daughter priest butcher farmer waiter
    waitress dancer dancers sailor sailors soldier soldiers tourist tourists people peasant peasants
    he she they he's she's they're you you're merchant baker cook maid servant grandmother
    grandfather grandma grandpa uncle aunt fisherman fishermen innkeeper bloke fellow his her their
    him them
    """.split()
)
_INSULT = re.compile(
    "|".join(
        [
            rf"\b(?:{_INSULT_NOUN}|{_CONTEMPT_ADJ})\b",
            r"\bold (?:bags?|bats?|farts?|hags?|coots?|codgers?|crones?|fools?)\b(?! (?:is|are) (?:in|on))",
            r"\b(?:lazy|drunk(?:en)?|dirty|filthy|useless) (?:old |little )?(?:bums?|slobs?|drunks?)\b",
            # a contemptuous adjective before a beast or a person: "silly cow", "lazy sod", "filthy beggars"
            r"\b(?:silly|lazy|stinking|sweaty|flabby|frumpy|scrawny|miserable|pompous|grubby|smelly|filthy) "
            r"(?:old |little |fat )?(?:cows?|donkeys?|mutts?|sods?|lumps?|brutes?|beggars?|bloke|oafs?|"
            r"camels?|"
            r"pigs?|goats?|bags?|windbags?|kids?|brats?|urchins?)\b",
            r"\b(?:(?:lazy|old|silly|stupid|poor|miserable|daft|you|little|cheeky|lucky|grumpy|stubborn|"
            r"smug|jammy|poor little) sods?|sod (?:it|this|that|you))\b",
            # the partner's words dismissed: "nobody cares about your dogs", "who asked?"
            r"\b(?:nobody|no one|no-one|who) (?:even |really )?(?:cares|asked)\b(?! (?:for|after)\b)",
            # the partner belittled
            r"\b(?:you|u)(?: really| clearly| just| honestly)?(?:'re| are| r|r)? "
            r"(?:so |really |such |just |clearly |completely |totally |"
            r"a |an |being |the )*(?:useless|annoying|clueless|hopeless|lazy|pathetic|incompetent|thick|"
            r"dense|slow|joke|pain|waste of (?:space|time)|worst|mentally challenged|trolling|"
            r"too (?:lazy|slow|thick|dumb))\b(?! (?:to see|from here|connection|internet))",
            r"\b(?:are|r) (?:you|u) (?:\w+ )?(?:slow|lazy|useless|clueless|hopeless|annoying|drunk|"
            r"trolling|mentally)\b",
            r"\b(?:you|u|you're|you are|are you|ur) (?:a |an )?(?:absolute |complete |total |utter |real |"
            r"little |big )*(?:fool|coward|joke|pain|baby|disgrace)\b(?! (?:in|of|on|at|to|for|from)\b)",
            # the partner called a thing in regional slang: "you absolute plank", "you utter wally"
            r"\b(?:you|u|you're|you are|ur) (?:an? )?(?:absolute |complete |total |utter |right |great |"
            r"big )*(?:plank|wally|melt|tool|donkey|nugget|weapon|walnut|spanner|lemon)(?=\s*(?:[.,!?;]|$))",
            # "hell" sworn as an aside: "hell knows why", "hell, my back hurts"
            r"\bhell knows\b|(?:^|[.!?;] ?)hell[,!] (?:my|i|i'm|you|no|yes|yeah|that|this|it's)\b",
            r"\b(?:be|being) (?:this |so |such an? |that )?(?:thick|dense|dumb|useless|annoying|stupid)\b",
            r"\b(?:even an?|an?) (?:toddler|child|baby|monkey|chimp|five-year-old) (?:could|can|would) "
            r"(?:figure|work|see|tell|understand|answer|read|get|follow)\b|\beven an? (?:toddler|child|baby|"
            r"monkey|chimp|five-year-old) (?:could|can|would|knows)\b",
            r"\bcan (?:you|u) (?:even )?read(?=\s*(?:[,?!.]|$| or\b))|\bthick as (?:a brick|two|mince)\b",
            r"\bfat (?:old |ugly )?(?:lumps?|slobs?|hippos?|pigs? of)\b|\b(?:greasy|inbred|stuck-up|sleazy) "
            r"(?:old |little )?(?:guy|guys|man|men|woman|women|bloke|git|one)\b",
            r"\b(?:how|so) (?:thick|dense|slow|dumb|useless|clueless) (?:are|can) (?:you|u|one)\b",
            r"\btoo (?:hard|much|difficult|complicated|complex)(?: a question| to ask)? for "
            r"(?:you|u|your (?:\w+ )?brain)\b",
            r"\b(?:your|ur) (?:tiny |little |small |pea-?sized |poor )?brain\b|\bget a brain\b|"
            r"\b(?:have|got) (?:a|any) brain\b|\brocks in your head\b|\biq of a\b",
            r",\s*(?:genius|einstein|sherlock|smartass|smarty-?pants|slowpoke|sunshine|loser|clown|jerk|"
            r"idiot|moron)\s*[?!.]*$|\bpain in the (?:neck|arse|ass|butt|backside)\b",
            r"\b(?:type|write|ask|asks|describe|questions) like a "
            r"(?:child|baby|toddler|drunk|monkey|chimp)\b",
            # the question or the artwork called worthless
            r"\b(?:this|that|such|what a) (?:load of |piece of )?(?:trash|rubbish|garbage|crap|"
            r"cobblers|bs)\b(?! (?:bins?|cans?|heaps?|piles?|collectors?|carts?|on the|in the|lying))",
            r"\b(?:questions?|question is|questions are) (?:are |is )?(?:so )?"
            r"(?:lame|trash|rubbish|pointless|brainless|idiotic)\b",
            # the partner called names at the end of a sentence: "chill out you old fossil", "Likewise, you
            # illiterate troll.", "find another job, you ungrateful pup." (not "thank you, old friend")
            r"\b(?:you|u) (?:old|little|ungrateful|illiterate|ignorant|senile|arrogant|rude|stupid|pathetic|"
            r"useless|clueless|daft|dumb|nasty|miserable) (?!(?:friend|pal|mate|chap|things?|ones?|man|boy|"
            r"girl|lady|dear|sir|madam|fellow|soul|timer|hand)\b)[a-z]+(?=\s*(?:[.!?]|$))",
            r"\bworst (?:partner|answerer|questioner|person|player|teammate|worker) (?:ever|in the world|"
            r"of all time)\b",
            # "bloody" said of the artwork or the partner's words: "it's bloody stunning", "speak bloody
            # english", "as I bloody said" (before a verb, after a pronoun, it can only swear); not "the knife
            # is bloody", "his face is bloody from the fight"
            r"\b(?:it's|its|it is|that's|thats|so|really|i|you|u|we|(?:speak|write|use|learn|answer|read)) "
            r"bloody "
            r"(?!(?:at|on|in|from|with|and|or|to|by|red|all|over|where|when|that)\b)[a-z]+",
            r"\bfor (?:god'?s|gods|christ'?s|christs) sake\b"
            r"|^(?:oh |good )?(?:jesus(?: christ)?|jeez|geez) (?:i|i've|i'm|you|u|ur|just|stop)\b",
            # mild swearing and telling the partner off
            # "bloody" as an intensifier (before an adjective), not a bloody sword or battle
            r"\bbloody (?:hell|well|obvious\w*|stupid|awful|terrible|annoying|useless|ridiculous|boring|"
            r"big|huge|tiny|small|massive|slow|hard|long|ugly|weird|odd|cold|hot|dark|bright|freezing|good|"
            r"great|nice|lovely|brilliant|amazing|miserable|gloomy|depressing|sad|empty|\w+(?:ly|ful|less|"
            r"ous|"
            r"ible|able))\b|(?:^|[,;:.!?] |\b(?:the|that|those|this|these|your|my|our|his|her|their|of|like|"
            r"some|all|such|what|every|no|and|two|three|four|five|six|seven|eight|nine|ten|twelve) )bloody "
            r"(?!(?:at|on|in|from|with|and|or|to|by|near|under|over|as|but|up|down|everywhere|red)\b)"
            r"(?!(?:sword|knife|"
            r"dagger|"
            r"axe|blade|weapon|spear|arrow|hands?|arms?|legs?|feet|foot|head|face|nose|mouth|lips?|battle\w*|"
            r"fight\w*|war|scene|wounds?|bandages?|apron|shirt|clothes|cloth|sheets?|rags?|bod(?:y|ies)|"
            r"corpses?|soldiers?|men|man|mess|floor|ground|snow|water|river|footprints?|tears?|stains?|"
            r"streaks?|meat|carcass\w*|cleaver|hunt|deer|animal|victims?|martyr\w*|saint|christ|cross|"
            r"knees?|handkerchief|towel|pliers|tools?|instruments?|tongs|teeth|tooth|scissors|saws?|hammers?|"
            r"nails?|hooks?|chains?|ropes?|buckets?|basins?|bowls?|tables?|dress|paws?|claws?|jaws?|fangs?|"
            r"horns?|beaks?|fur|feathers?|cloak|robes?|sleeves?|gloves?|boots?|shoes?|stumps?|spikes?|"
            r"thorns?|crown|mark|marks|trail|smear\w*|rag|gauze)\b)\w+",
            # "X as hell" swears; a scene "painted as hell" is content
            r"(?<=\w)(?<!painted)(?<!shown)(?<!depicted)(?<!seen)(?<!portrayed)(?<!described)(?<!imagined)"
            r"(?<!known)(?<!such) as hell\b(?! (?:itself|is|was|in|of|with|by|and heaven))",
            r"\bsuck(?:s|ed|y)?(?=\s*(?:[.,!?;]|$| at\b| so\b| big\b))",
            r"\b(?:sh1t|bs|effing|f-ing|friggin\w*|frick\w*|feck\w*|bollocks|arse\w*)\b",
            r"\b(?:sod|bugger|f|eff) off\b|\bgo screw\b|\bscrew (?:yourself|urself)\b",
            r"^(?:just |oh |ugh,? )?(?:go away|get lost|zip it|shut it|grow up|quit being|stop whining|"
            r"go bother)\b",
            r"(?:^|[.!?;] )(?:oh |good |dear )?(?:jesus(?: christ)?|christ|god|lord|jeez|geez)[,!.]+ "
            r"(?:i|i've|i'm|you|u|you're|ur|stop|just|how|what|why|again|can|could|tell|do|is|are|"
            # the oath before a remark or an address: "Christ, ye're a literal one", "Christ, man, ...",
            # "Jesus Christ, sounds freaky"
            r"ye|ye're|yer|ya|man|mate|sounds|seriously|really|honestly|whatever|enough|not|another)\b|"
            # oaths spelt as Irish, Scots and South African English say them: "Jaysus", "bladdy"
            r"\b(?:jaysus|jayzus|jaysis|jeezus|bladdy|bleddy|bluddy|blerrie|blerry)\b|"
            r"\bjesus wept\b|for crying out loud|"
            r"\bugly as (?:sin|hell|f\w*)\b|\bwould it kill (?:you|u)\b|\bany (?:fool|idiot|child|toddler) "
            r"(?:could|can|would)\b|\b(?:is|are|seems?|was) (?:\w+ )?lost on (?:you|u)\b|"
            r"\b(?:better|clearer|smarter|faster|more useful) (?:\w+ ){0,3}than (?:you|u|"
            r"yours)\b(?! (?:think|thought|"
            r"expect|might|would|'d))|"
            r"\bwhat the f\b|\b(?:go|just|please|hope (?:you|u)|drop) (?:die|dead)\b",
            # "ass" as a swear, not the donkey: "busted his ass", "creepy ass doll", "which pretentious ass"
            r"\b(?:bust|busted|busting|kick|kicked|kicking|whoop|whooped|work|worked|working|sat on|"
            r"fell on|landed on|laughing|laughed|freeze|freezing|froze) (?:his|her|their|my|your|ur|its|our) "
            r"(?:\w+ )?ass(?:es)?\b|\b(?:creepy|ugly|weird|stupid|crazy|scary|dumb|lazy|pretentious|pompous|"
            r"arrogant|cheap|boring|sorry|lame|fancy|bougie|sad|broke|nerdy|snobby|snooty) ass\b"
            # "a big ass dragon": "ass" stressing a size before a noun, not a donkey that walks or is loaded
            r"|\b(?:big|huge|giant|massive|long|fat|bad|tall) ass (?!(?:with|and|or|in|on|at|by|of|from|is|"
            r"was|walks|stands|carries|eats|that|which|who|the|a|an|his|her|its|their)\b)(?![a-z]+(?:ing|ed)\b)"
            r"[a-z]{3,}",
            # "damned" as a swear ("the damned cat"), not the damned souls of a Last Judgement
            r"\b(?:that|this|those|these|your|my|the|a|some) (?:god ?)?damned? (?:cat|cats|dog|dogs|thing|"
            r"things|question|questions|painting|picture|bird|birds|horse|fool|fools|kid|kids|child|door|"
            r"light|boat|car|hit|task|game|phone|computer|internet|timer|page|site|fly|flies|noise|rain|"
            r"weather|pay|chat|guy|man|woman|painter|artist|job|traffic)\b",
        ]
    )
)
_INSULT_TRIGGERS = frozenset(
    """
    dimwit dimwits nitwit nitwits halfwit halfwits numbskull numbskulls numpty numpties muppet muppets
    dolt dolts slowpoke slowpokes meathead meatheads fatso slob slobs hag hags geezer geezers brat brats
    pervert perverts weirdo weirdos freak freaks scum slag slags hooker hookers dumbo cretin cretins
    twit twits git gits airhead airheads bimbo bimbos creep creeps dummy dummies stupid stupidest
    stupidity dumb dumber dumbest idiotic moronic brainless brain-dead pathetic useless clueless
    imbecilic pig pigs cow cows goat goats rat rats bat bats weasel weasels chimp chimps monkey monkeys
    ape apes animals goblin goblins witch witches troll trolls lump lumps bag bags tramp tramps bum bums
    slug slugs toad toads hippo hippos whale whales fart farts coot coots codger codgers crone crones
    fool fools drunks hopeless annoying incompetent thick dense slow joke pain waste worst mentally
    trolling too brain iq genius einstein sherlock smartass smarty-pants smartypants sunshine child baby
    toddler drunk five-year-old read fat greasy inbred stuck-up sleazy coward disgrace jesus christ god
    lord jeez geez loud die dead f cheeky lucky grumpy stubborn smug jammy nobody cares asked
    trash rubbish garbage crap cobblers bs lame pointless bloody hell
    suck sucks sucked sucky sh1t effing f-ing friggin frigging frick fricking feck fecking bollocks arse
    arsehole screw away lost zip loser clown jerk idiot moron shut grow quit whining bother oaf oafs
    twerp twerps drongo drongos yokel yokels windbag windbags lardarse lard-arse lardass prude prudes
    queen queens fugly pervy dopey scabby snotty lice-ridden pig-faced ham-fisted silly stinking sweaty
    flabby frumpy scrawny pompous grubby smelly sod sods wept ugly kill better clearer smarter faster
    losers jerks hicks hick snob snobs screw-up screw-ups rocks bugger eff lazy filthy miserable
    wrinkled drunken dirty
    smartass smartasses smartarse smartarses smart-arse smart-arses know-it-all know-it-alls prat prats
    pillock pillocks plonker plonkers tosser tossers berk berks bellend bellends knobhead knobheads ponce
    ponces poncy wanker wankers scumbag scumbags sleazebag sleazebags dirtbag dirtbags lowlife lowlifes
    nincompoop nincompoops ignoramus ignoramuses knucklehead knuckleheads bonehead boneheads blockhead
    blockheads doofus doofuses dingbat dingbats ninny ninnies douche douches douchebag douchebags skank
    skanks wuss wusses crybaby crybabies slimeball slimeballs sleazeball sleazeballs scrote scrotes minger
    mingers munter munters bugger buggers sodding bleeding spaz spastic spastics bogan bogans yob yobs
    yobbo yobbos lout louts chav chavs cheapskate cheapskates skinflint skinflints tightwad tightwads
    ass asses damned damn goddamned
    ungrateful illiterate ignorant senile arrogant rude nasty old daft partner answerer questioner
    person player teammate worker stunning gods god's christ's christs jesus jeez geez
    jaysus jayzus jaysis jeezus bladdy bleddy bluddy blerrie blerry
    dipstick dipsticks eejit eejits gobshite gobshites wazzock wazzocks dunce dunces dork dorks dweeb
    dweebs bozo bozos galah galahs plank wally melt tool donkey nugget weapon walnut spanner lemon knows
    """.split()
)
# Art-ordinary and identity words hidden from the model (see the module docstring).
_MASK = re.compile(
    r"\b(?:hell|hells|damned|damnation|devils?|satan|demons?|ass|asses|cocks?|roosters?|naked|nudes?|"
    r"nudity|breasts?|bosoms?|nipples?|buttocks|bare|kill(?:s|ed|ing)?|killer|murder\w*|dead|death|"
    r"bloody|blood|corpses?|prostitutes?|brothel|rape|sexy|sexual|lovers?|kiss(?:es|ing)?|fat|ugly|"
    r"drunk(?:en)?|butt|balls?|screws?|suck(?:s|ed|ing|les|led)|gay|jew(?:s|ish)?|black|muslims?|"
    r"africans?|indians?|gypsy|gypsies|slaves?|penis|genitals|dick|pee(?:ing)?|urinat\w*|executioner|"
    r"whites?|die[sd]?|dying|pigs?|cows?|rats?|\w+-looking|mouths?|licks?|licking|spit(?:s|ting)?|"
    r"swallows?|wet|blow(?:s|ing|n)?|sick(?:ening|ens)?|shut(?! (?:up|it|your|the \w+ up)))\b"
)


# Fewest words a message needs before the profanity model's score alone may flag it.
MIN_MODEL_WORDS = 4


def model_input(lower: str) -> str:
    """The text the model scores: art-ordinary and identity words removed."""
    return _MASK.sub(" ", lower)


class _LinearScorer:
    """The shipped model's arithmetic without scikit-learn's per-call overhead.

    The package's model is a TF-IDF vectoriser (unigrams, l2 norm) feeding a
    ``CalibratedClassifierCV`` of linear SVMs with sigmoid calibration; its ``predict_prob`` costs
    ~13 ms per call whatever the batch size, which one chat message or one dialog cannot amortise.
    This class reads the same fitted numbers once and computes the same probability in pure
    Python (tests check it against ``predict_prob``).
    """

    def __init__(self) -> None:
        vec, model = _shipped.vectorizer, _shipped.model
        if vec.ngram_range != (1, 1) or vec.norm != "l2" or vec.sublinear_tf or vec.binary:
            raise ValueError("unexpected vectoriser settings")
        folds = model.calibrated_classifiers_
        self.token = re.compile(vec.token_pattern)
        self.intercepts = [float(f.estimator.intercept_[0]) for f in folds]
        self.sigmoids = [(float(f.calibrators[0].a_), float(f.calibrators[0].b_)) for f in folds]
        coefs = [f.estimator.coef_[0] for f in folds]
        idf = vec.idf_
        self.terms = {
            term: (float(idf[j]), tuple(float(c[j]) for c in coefs)) for term, j in vec.vocabulary_.items()
        }
        self.folds = range(len(folds))

    def __call__(self, text: str) -> float:
        counts: dict[str, int] = {}
        for tok in self.token.findall(text):
            if tok in self.terms:
                counts[tok] = counts.get(tok, 0) + 1
        decisions = list(self.intercepts)
        if counts:
            weights = [(n * self.terms[t][0], self.terms[t][1]) for t, n in counts.items()]
            norm = math.sqrt(sum(w * w for w, _ in weights))
            for w, coef in weights:
                for k in self.folds:
                    decisions[k] += w / norm * coef[k]
        total = 0.0
        for d, (a, b) in zip(decisions, self.sigmoids, strict=True):
            total += 1.0 / (1.0 + math.exp(a * d + b))
        return total / len(decisions)


try:
    _score: _LinearScorer | None = _LinearScorer()
except (AttributeError, IndexError, ValueError):  # a future package version shaped differently
    _score = None


def model_scores(lowers: Sequence[str]) -> list[float]:
    """Offensive-language probabilities for normalised texts, as the shipped model gives them."""
    if not lowers:
        return []
    if _score is not None:
        return [_score(model_input(t)) for t in lowers]
    return [float(p) for p in predict_prob([model_input(t) for t in lowers])]


_extra_cache: dict[tuple[str, ...], re.Pattern[str] | None] = {}


def _extra_pattern(extra: list[str]) -> re.Pattern[str] | None:
    key = tuple(extra)
    if key not in _extra_cache:
        alternatives = "|".join(re.escape(w.lower()) for w in extra if w.strip())
        _extra_cache[key] = re.compile(rf"\b(?:{alternatives})\b") if alternatives else None
    return _extra_cache[key]


def detect_offensive(ctx: Context, cfg: OffensiveConfig) -> bool:
    lower = ctx.lower
    if ctx.finds(_BLOCKLIST) or ctx.finds(_BLOCKLIST_PHRASES):
        return True
    if any(ch in lower for ch in "*#@$%") and (
        _STARRED_SWEARING.search(lower) is not None or _starred(lower)
    ):
        return True
    words = ctx.wordset
    if "'s" in lower:  # "some muppet's scrawled", "for feck's sake"
        words = words | {w[:-2] for w in words if w.endswith("'s")}
    if not words.isdisjoint(_INSULT_TRIGGERS) and ctx.finds(_INSULT):
        return True
    if (
        not words.isdisjoint(_BEAST_WORDS)
        and not (words.isdisjoint(_PERSON_WORDS) and words.isdisjoint(_HUMAN_ACTS))
        and ctx.finds(_BEASTLY)
    ):
        return True
    if cfg.extra_words:
        extra = _extra_pattern(cfg.extra_words)
        if extra is not None and extra.search(lower):
            return True
    if not cfg.use_model:
        return False
    if "hoe" in words and language.afrikaans_dutch(ctx.words):
        return False  # Afrikaans/Dutch "hoe" is "how" ("Hoe lyk die lug?"); the model reads the slur
    if ctx.profanity is None:  # kept: the learned classifiers read it too
        ctx.profanity = model_scores([lower])[0]
    # The model scores a message of one to three words by those words' weights alone ("white",
    # "Old." scored high): such a message counts only through the word lists above.
    return ctx.profanity >= cfg.model_threshold and len(ctx.words) >= MIN_MODEL_WORDS


RULES = [
    Rule(
        id="offensive",
        roles=frozenset(ROLES),
        explanation="Please keep it polite: no swearing, insults or slurs.",
        summary="Profanity, insults and slurs (word list plus the alt-profanity-check model).",
        config=OffensiveConfig,
        detect=detect_offensive,
    )
]
