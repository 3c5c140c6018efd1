"""Courtesy phrases in about forty languages: greetings, thanks, farewells, "how are you", "you're welcome",
well-wishes and the address words that go with them ("kak", "bhai", "ji", "po", "sir").

Workers from everywhere open, thank and sign off in their own language ("Terima kasih, sampai jumpa",
"Diolch yn fawr", "Sağ ol, görüşürüz"), so the greeting rule needs the phrases of many languages, in the
native script and in the Latin spellings people type. This module only holds the table; the rules in
``smalltalk`` decide where in a message a phrase counts. Entries are regex fragments over the normalised
(lower-case, straight-apostrophe) text, written from general knowledge of the languages.

Phrases that are also ordinary words elsewhere ("pa", "tack", "night", "halo") are left out of the tables
used anywhere in a message: they live in ``REPLY_ONLY``, which counts only in a message made of nothing but
courtesy; a few of them ("hei", "ciao", "salam") are safe as the first word, so ``GREETINGS`` has them too.
"""

from __future__ import annotations

from collections.abc import Iterable

# Salutations that open a message; safe as the first word even when content follows.
GREETINGS: dict[str, tuple[str, ...]] = {
    "english": (r"well hello", r"g'?day|gidday|g'?day mate", r"hey there|hi there|hello there"),
    "welsh": (r"shw+mae|shw mae|sut mae", r"bore da", r"prynhawn da", r"noswaith dda"),
    "irish": (r"dia dhuit|dia duit",),
    "jamaican": (r"wh?a+h? g(?:wa+n|wan)|wah gwaan|wha gwan|waa gwaan",),
    "french": (r"all[oô]+(?=[!,])", r"bonjour|bonsoir|salut|coucou"),
    "italian": (r"buon pomeriggio|ciao|salve|buongiorno|buonasera",),
    "spanish": (
        r"qu[eé] tal|qu[eé] onda",
        r"hola|buen(?:os|as) (?:d[ií]as|tardes|noches)|buenas|buen d[ií]a",
    ),
    "portuguese": (
        r"oi(?:e|ê)? tudo bem",
        r"ol[aá],? tudo bem",
        r"ol[aá]|oi+|bom dia|boa (?:tarde|noite)|tudo bem|tudo bom|tudo (?:e|e a|and) (?:vc|voc[eê]|tu)",
    ),
    "german": (r"hallo+|guten (?:morgen|tag|abend)|servus|moin|gr[uü](?:ß|ss) gott",),
    "dutch": (r"goedenavond|goedendag|hallo(?:tjes)?|hoi|goedemorgen|goedemiddag",),
    "afrikaans": (r"goeie (?:m[oô]re|middag|aand)",),
    "swedish": (r"god(?: morgon| middag| kv[aä]ll)|hej(?: hej|san)?",),
    "norwegian": (r"god (?:morgen|kveld|dag)|hallais|hall[aå]|hei",),
    "danish": (r"godmorgen|goddag|hej med dig",),
    "finnish": (r"moi(?:kka)?(?=[!,])|hyv[aä][aä] (?:p[aä]iv[aä][aä]|huomenta|iltaa)|terve",),
    "polish": (r"dzie[nń] dobry|witaj(?:cie)?|witam|cze[sś][cć]|dobry wiecz[oó]r",),
    "czech": (r"dobr[eé] r[aá]no|dobr[yý] ve[cč]er|dobr[yý] den|ahoj",),
    "croatian_serbian": (r"zdravo",),
    "russian": (
        r"zdravstvuy(?:te)?|dobryy? den|dobroe utro|добрый вечер|privet",
        r"здравствуй(?:те)?|добр(?:ый (?:день|вечер)|ое утро)|привет",
    ),
    "ukrainian": (
        r"dobr(?:yi|yy|yj|iy|ij|ий) den'?|dobroho (?:ranku|dnia|vechora)|dobryi vechir|vitayu",
        r"добрий день|доброго ранку|добрий вечір|вітаю|привіт",
    ),
    "romanian": (r"bun[aă](?: ziua| dimineața| dimineata| seara)?(?=[!,. ]|$)|salutare|bun[aă] ziua",),
    "hungarian": (r"j[oó] reggelt|j[oó] est[eé]t|sziasztok|szia|j[oó] napot",),
    "greek": (r"kalimera|kalispera|geia sas|yia sou|geia sou|yassou|γεια σου|γεια σας|καλημέρα|καλησπέρα",),
    "turkish": (r"merhaba|selam(?:lar)?|g[uü]nayd[ıi]n|iyi ak[sş]amlar",),
    "arabic": (
        r"as-?salam(?:u|o)? ?(?:o )?(?:a|'a)?l[ae]i?kum|assalam(?:u|o)? ?(?:o )?(?:a|'a)?l[ae]i?kum",
        r"salam alaikum|salaam alaikum|salam aleikum",
        r"w[ao]?[-' ]?(?:a)?l[ae]i?kum(?:[-' ]?(?:as|us)?[-' ]?sala+m)?|walaikum ?(?:as|us)?[-' ]?sala+m",
        r"sabah al-?khair|masa al-?khair|ahlan wa sahlan|marhaban",
        # praise and congratulation that open a message as a pleasantry
        r"(?:alhamdulill?ah|mabrou?k|mabrook|mubarak)(?=[.,!])",
        r"صباح الخير|مساء الخير|أهلا|اهلا",
        r"salaam|salam|marhaba|ahlan|as-?salamu? alaykum|wa ?alaykum (?:as-?)?salam|"
        r"مرحبا|وعليكم السلام|السلام عليكم",
        # the salute in English words: "Peace be upon you, brother."
        r"peace be (?:upon|unto|with) (?:you|u)(?: all)?",
    ),
    "hebrew": (r"shalom|boker tov|שלום|בוקר טוב",),
    "persian": (r"salam(?= |!|,)|dorood|سلام|درود",),
    "urdu_hindi": (
        r"adaab|aadab|namaskaar|ram ram|jai shri krishna|sat shri akal|नमस्कार|آداب",
        r"namaste|namaskar|sat sri akal|नमस्ते",
    ),
    "bengali": (r"nomoskar|nomoshkar|নমস্কার",),
    "tamil_telugu": (r"vanakkam|namaskaram|வணக்கம்|నమస్కారం",),
    "nepali": (r"namaste dai|namaste didi",),
    "indonesian_malay": (
        r"selamat (?:pagi|siang|sore|malam|petang|tengah hari)|apa khabar|"
        r"halo (?=kak|semua|bro|gan|mas|mbak)",
        r"selamat datang|apa kabar",
    ),
    "tagalog": (r"magandang (?:araw|umaga|hapon|gabi)(?: po)?|musta", r"magandang tanghali|ku?musta|mabuhay"),
    "vietnamese": (r"xin ch[aà]o|ch[aà]o (?:b[aạ]n|anh|ch[iị]|em|c[oô]|[oô]ng)",),
    "thai": (r"sawa?s?(?:d|t)ee?(?: (?:krub|krap|khrap|ka|kha|kah))?|สวัสดี(?:ครับ|ค่ะ|คะ)?",),
    "chinese": (r"n[iǐ] ?h[aǎ]o|大家好|早上好|晚上好|你好|您好",),
    "japanese": (
        r"konnichiwa|konbanwa|ohayo+(?: gozaimasu)?|おはよう(?:ございます)?|こんばんは",
        r"ohayou(?: gozaimasu)?|こんにちは",
    ),
    "korean": (r"annyeong(?:haseyo)?|안녕하세요|안녕",),
    "swahili": (r"jambo|hujambo|habari(?: yako| za asubuhi)?|shikamoo",),
    "zulu_xhosa": (r"sawubona|molo|dumela|sanibonani",),
    "maori_hawaiian": (r"kia ora|t[eē]n[aā] koe|aloha",),
    "amharic": (r"selam new|ሰላም",),
    # Yoruba: "e kaaro", "ẹ káàrọ̀", "e kaasan", "ẹ nlẹ"
    "yoruba": (r"[eẹ] k[aá][aà]?(?:r[oọ]|s[aá]n|l[eẹ])|[eẹ] n[lḷ][eẹ]",),
    "sinhala": (r"ayubowan|aayubowan|ආයුබෝවන්?",),
    "haitian": (r"bonjou|bonswa|sak pa[sp]e",),
    "catalan_basque_galician": (r"bon dia|bona tarda|bona nit|kaixo|egun on",),
    "baltic_estonian": (r"labas|laba diena|sveiki|labdien|tere(?: p[aä]evast)?",),
    "caucasus": (r"gamarjoba|barev(?: dzez)?|salam aleykum",),
    "central_asian": (r"assalomu alaykum|salem(?:etsiz be)?|sain baina uu",),
    "mainland_se_asian": (r"mingalaba|mingalarbar|sua s(?:dey|dei)|chom reap suor|sabaidee|sabai ?dee",),
    "indian_more": (r"kem cho|namaskara|sat sri akaal|khurumjari|vanakam",),
    "hausa_igbo": (r"sannu|ndewo|kedu",),
    "somali_malagasy": (r"iska warran|salama",),
    "maltese_albanian": (r"bongu|pershendetje|përshëndetje",),
}

# Thanks.
THANKS: dict[str, tuple[str, ...]] = {
    "english": (
        r"ta(?: very much| muchly)?|cheers|many thanks|much obliged|thanks|thankyou|tyvm|tysm|thx|ty",
    ),
    "spanish": (r"(?:muchas )?gracias(?: amig[oa]| por todo| por la ayuda)?|mil gracias",),
    "portuguese": (r"(?:muito )?obrigad[oa](?: pela ajuda| por tudo)?|valeu|brigad[oa]|obg",),
    "french": (r"merci(?: beaucoup| bien| mille fois)?",),
    "italian": (r"grazie(?: mille| tante)?",),
    "german": (r"danke(?: sch[oö]n| sehr)?|vielen dank|dankesch[oö]n",),
    "dutch": (r"dank je(?: wel)?|dank u(?: wel)?|bedankt",),
    "afrikaans": (r"(?:baie )?dankie",),
    "swedish_norwegian_danish": (
        r"tack s[aå] mycket(?: f[oö]r (?:hj[aä]lpen|allt))?|tack f[oö]r (?:hj[aä]lpen|allt)|tack ska du ha",
        r"tusen takk|takk(?: skal du ha| for hjelpen)?",
        r"mange tak|tusind tak",
    ),
    "finnish": (r"kiitos(?: paljon)?",),
    "icelandic": (r"takk fyrir",),
    "welsh": (r"diolch(?: yn fawr(?: iawn)?)?",),
    "irish": (r"go raibh (?:m[ií]le )?maith agat",),
    "polish": (r"(?:bardzo )?dzi[eę]kuj[eę](?: bardzo)?|dzi[eę]ki",),
    "czech_slovak": (r"d[eě]kuji|d[ií]ky|[dď]akujem",),
    "russian": (r"spasibo(?: bolshoe)?|спасибо(?: большое)?|большое спасибо|благодарю",),
    "ukrainian": (r"d(?:y|i)akuyu|diakuiu|dyakuju|дякую",),
    "romanian": (r"mul[tțţ]umesc(?: frumos| mult)?|mersi(?: mult)?",),
    "hungarian": (r"k[oö]sz[oö]n[oö]m(?: sz[eé]pen)?|k[oö]szi",),
    "croatian_serbian": (r"hvala(?: lijepa| puno)?",),
    "bulgarian": (r"blagodarya|благодаря|merci",),
    "greek": (r"(?:efcharisto|efharisto|ευχαριστώ)(?: πολύ| poli| poly)?",),
    "turkish": (r"te[sş]ekk[uü]r(?:ler| ederim)|sa[gğ] ?ol(?:un)?|eyvallah",),
    "arabic": (r"shukran(?: jazeelan)?|shokran|jazak ?allah(?:u)?(?: khair(?:an)?)?|شكرا(?: جزيلا)?",),
    "hebrew": (r"toda(?: raba)?|תודה",),
    "persian": (r"merci|mamnoon(?:am)?|motashakkeram|ممنون|مرسی",),
    "urdu_hindi": (
        r"shukriya(?: ji)?|shukria|bahut shukriya|dhanyavaa?d|dhanyawaa?d|meherbani|mehrbani",
        r"धन्यवाद|शुक्रिया|شکریہ",
    ),
    "bengali": (r"dhonno?bad|dhonyobad|dhanyabad|ধন্যবাদ",),
    "punjabi": (r"bahut meharbani",),
    "tamil": (r"nandri|நன்றி",),
    "telugu_kannada": (r"dhanyavadalu|dhanyavadagalu",),
    "nepali": (r"dhanyabaad",),
    "indonesian_malay": (r"terima ?kasih(?: banyak)?(?: ya)?|makasih(?: banyak)?|trims",),
    "tagalog": (r"(?:maraming )?salamat(?: po)?",),
    "vietnamese": (r"c[aảá]m [oơ]n(?: (?:b[aạ]n|anh|ch[iị]|em))?(?: nhi[eề]u)?",),
    "thai": (r"kh?o[bp] ?kh?un(?: (?:krub|krap|khrap|ka|kha|mak))*|ขอบคุณ(?:ครับ|ค่ะ|มาก)*",),
    "chinese": (r"xie ?xie|谢谢(?:你)?|多谢|謝謝",),
    "japanese": (r"arigato(?:u)?(?: gozaimasu)?|domo arigato|ありがとう(?:ございます)?|どうも",),
    "korean": (r"kamsahamnida|gamsahamnida|gomawo(?:yo)?|감사합니다|고맙습니다|고마워요?",),
    "swahili": (r"asante(?: sana)?",),
    "yoruba_igbo_hausa": (r"[eẹ] [sṣ][eé](?: gan| o)?|[eẹoó] [sṣ]eun|daalu|na gode",),
    "zulu_xhosa": (r"ngiyabonga|enkosi",),
    "maori": (r"kia ora|ng[aā] mihi",),
    "amharic": (r"amesegnalehu",),
    "sinhala": (r"stuthi(?:yi)?|sthuthi(?:yi)?|bohoma sthuthi",),
    "haitian": (r"m[eè]si(?: anpil)?",),
    "catalan_basque": (r"moltes gr[aà]cies|gr[aà]cies|eskerrik asko",),
    "baltic_estonian": (r"a[cč]i[uū]|paldies|ait[aä]h",),
    "caucasus": (r"madloba|shnorhakalutyun|merci jan",),
    "central_asian": (r"rahmat|raxmet|bayarlalaa",),
    "hawaiian": (r"mahalo(?: nui(?: loa)?)?",),
    "more_african": (r"medaase|ndatenda|siyabonga|ke a leboga|mahadsanid",),
    "more_asian": (r"tashakor|tashakur|aw kun|kop chai|kyay zu tin ba(?:de)?",),
}

# Farewells.
FAREWELLS: dict[str, tuple[str, ...]] = {
    "english": (
        r"good ?bye+|bye+(?:[ -]bye+)?|byee+|cya|see (?:ya|you|u)(?: (?:later|around|soon|then))?|"
        r"take care(?: now)?|ttyl|laters|later(?:s)? (?:mate|all)|cheerio|ta-?ra(?: then)?|hooroo|"
        r"catch (?:you|ya|u)(?: later| round)?|mind (?:yourself|how you go)|bye for now|good night|"
        r"goodnight|nighty night|night night|all the best|be well|stay safe|until next time|farewell",
    ),
    "spanish": (r"adi[oó]s|hasta (?:luego|pronto|la vista|ma[nñ]ana)|chao|nos vemos|cu[ií]date",),
    "portuguese": (r"tchau|adeus|at[eé] (?:logo|mais|breve)|beijinhos|beijos|um abra[cç]o|abra[cç]os",),
    "french": (r"au revoir|[aà] (?:bient[oô]t|plus)|bonne (?:journ[eé]e|soir[eé]e|nuit)|salut(?= *[!.]*$)",),
    "italian": (r"arrivederci|a presto|ci vediamo|buona (?:giornata|serata|notte)|buonanotte|ciao ciao",),
    "german": (r"auf wiedersehen|tsch[uü]ss(?:i)?|bis (?:bald|sp[aä]ter|dann)|ciao",),
    "dutch": (r"tot ziens|doei|dag dag|tot straks|fijne dag",),
    "afrikaans": (r"totsiens|mooi loop",),
    "swedish_norwegian_danish": (r"hej d[aå]|ha det (?:bra|godt)|vi ses|farvel|hej hej",),
    "finnish": (r"n[aä]kemiin|moikka|hei hei",),
    "welsh": (r"hwyl(?: fawr)?|da bo|tan toc|pob hwyl",),
    "irish_scots": (r"sl[aá]n(?: abhaile| leat| go f[oó]ill)?|beannachd leat|haste ye back",),
    "polish": (r"do widzenia|do zobaczenia|na razie|pa pa|mi[lł]ego dnia|dobranoc",),
    "czech": (r"na shledanou|ahoj(?= *[!.]*$)",),
    "russian": (r"do svidaniya|poka|до свидания|пока|всего доброго|хорошего дня",),
    "ukrainian": (r"do pobachennya|do pobachennia|do pobachenya|бувай(?:те)?|до побачення",),
    "romanian": (r"la revedere|pa pa|pa(?= *!+$)",),
    "hungarian": (r"viszl[aá]t|viszontl[aá]t[aá]sra",),
    "croatian_serbian": (r"do vi[dđ]enja|zbogom|vidimo se",),
    "greek": (r"antio|kalinichta|kalinyxta|γεια|αντίο|καληνύχτα",),
    "turkish": (r"g[oö]r[uü][sş][uü]r[uü]z|ho[sş][cç]a ?kal(?:[ıi]n)?|iyi g[uü]nler|iyi geceler|bay bay",),
    "arabic": (
        r"ma'?a? ?(?:al)?-?sala+ma?h?|ma salama|bislama|مع السلامة|إلى اللقاء",
        # good night: "tisbah ala khair", "تصبح على خير"
        r"tisbah(?:i|u)? (?:ala|3ala|'?ala) (?:khair|kheir|khe?yr)|تصبح(?:ين|ون)? على خير",
    ),
    "hebrew": (r"lehitraot|להתראות",),
    "persian": (r"khod[aā]h[aā]fez|خداحافظ",),
    "urdu_hindi": (
        r"allah ha?fiz|khuda ha?fiz|alvida|phir milenge|phir milte hain|अलविदा|फिर मिलेंगे|اللہ حافظ|خدا حافظ",
    ),
    "bengali": (r"abar dekha hobe|bhalo theko",),
    "indonesian_malay": (r"sampai (?:jumpa|ketemu|nanti)(?: lagi)?|selamat (?:tinggal|jalan)|dadah",),
    "tagalog": (r"paalam(?: po)?|ingat(?: po| ka| kayo)?",),
    "vietnamese": (r"t[aạ]m bi[eệ]t|ch[aà]o nh[eé]",),
    "thai": (r"la gon|lah gorn|ลาก่อน",),
    "chinese": (r"zai ?jian|再见|拜拜|回头见",),
    "japanese": (r"sayonara|sayounara|mata ne|じゃあね|またね|さようなら",),
    "korean": (r"annyeonghi (?:gaseyo|gyeseyo)|안녕히 (?:가세요|계세요)",),
    "swahili": (r"kwa ?heri|tutaonana|siku njema",),
    "yoruba": (r"[oó] d[aà]b[oọ]\u0300?",),
    "zulu_xhosa": (r"hamba kahle|sala kahle",),
    "maori": (r"ka kite(?: an[oō])?|haere r[aā]|noho r[aā]",),
    "hawaiian": (r"a hui hou",),
    "haitian": (r"orevwa|na w[eè]",),
    "sinhala": (r"gihin ennam|nawatha hambawemu",),
}

# "How are you?" and its replies.
HOW_ARE_YOU: dict[str, tuple[str, ...]] = {
    "spanish": (r"c[oó]mo est[aá]s|c[oó]mo est[aá] usted|qu[eé] tal (?:est[aá]s|todo)",),
    "portuguese": (r"como (?:vai|est[aá])(?: voc[eê])?|tudo bem com voc[eê]",),
    "french": (r"comment (?:[cç]a va|allez-vous|vas-tu)|[cç]a va\s*\?",),
    "italian": (r"come stai|come sta|come va",),
    "german": (r"wie geht(?:'s| es)(?: (?:dir|ihnen))?",),
    "dutch": (r"hoe gaat het(?: met (?:je|jou|u))?",),
    "swedish_norwegian_danish": (r"hur m[aå]r du|hur [aä]r det|hvordan g[aå]r det|hvordan har du det",),
    "finnish": (r"mit[aä] kuuluu",),
    "welsh": (r"sut wyt ti|sut dach chi",),
    "polish": (r"jak si[eę] (?:masz|macie)|co s[lł]ycha[cć]",),
    "czech": (r"jak se m[aá][sš]",),
    "russian_ukrainian": (r"kak dela|как дела|yak spravy|як справи",),
    "romanian": (r"ce (?:mai )?faci|ce mai faceți",),
    "greek": (r"ti kaneis|τι κάνεις",),
    "turkish": (r"nas[ıi]ls[ıi]n(?:[ıi]z)?|naber",),
    "arabic": (r"kayf(?: al)?[- ]?hal(?:ak|ik)|kaifa haluka|izzayak|keef halak|كيف حالك",),
    "urdu_hindi": (r"(?:aap )?kaise (?:ho|hain)|kya haal hai|ap kaise hain|kese ho",),
    "bengali": (r"kemon a(?:cho|chen)|ki khobor",),
    "indonesian_malay": (r"apa kabar(?:nya)?|apa khabar",),
    "tagalog": (r"kumusta(?: ka| po kayo| kayo)?|kamusta(?: ka)?",),
    "vietnamese": (r"b[aạ]n (?:c[oó] )?kh[oỏ]e kh[oô]ng",),
    "thai": (r"sabai dee (?:mai|mai krub|mai ka)",),
    "chinese": (r"ni hao ma|你好吗",),
    "japanese": (r"o?genki desu ka|お元気ですか",),
    "korean": (r"jal ji(?:nae|naess)eoyo|잘 지내(?:세요|요)\?",),
    "swahili": (r"habari (?:yako|zako|gani)|u hali gani|mambo vipi",),
    "jamaican": (r"how yuh (?:stay|do)|wah gwaan",),
    "sinhala": (r"kohomada|oyata kohomada",),
    "tamil": (r"eppadi irukk?(?:eenga|inga|inge|e)|nalama",),
    "haitian": (r"kouman ou ye|sak pa[sp]e",),
    "gujarati_marathi": (r"kem cho|kasa aahat|kasa ahes",),
}

# "I'm fine" answering "how are you?" in other languages.
WELL_BEING: dict[str, tuple[str, ...]] = {
    "swahili": (r"nzuri(?: sana)?|salama|poa|njema",),
    "spanish": (r"(?:muy )?bien(?:,? gracias)?|estoy bien|todo bien",),
    "french": (r"(?:tr[eè]s )?bien(?:,? merci)?|[cç]a va(?: bien)?|je vais bien",),
    "italian": (r"(?:sto )?bene(?:,? grazie)?|tutto bene",),
    "portuguese": (r"(?:estou |tudo )?bem(?:,? obrigad[oa])?|tudo [oó]timo|tudo bom",),
    "german_dutch": (r"(?:mir geht'?s |mir geht es )?gut(?:,? danke)?|goed(?:,? dank je)?|prima",),
    "polish_russian": (r"dobrze|khorosho|хорошо|нормально|normalno",),
    "turkish": (r"iyiyim|iyidir",),
    "indonesian_tagalog": (r"baik(?: baik| saja)?|kabar baik|mabuti(?: naman)?|ayos lang",),
    "hindi_bengali": (r"(?:main )?th[ie]e?k (?:hoon|hu|hun|hai)|badhiya|bhalo achi|mast",),
    "sinhala_tamil": (r"mama hondin(?: innawa)?|hondin|nalla irukk?(?:en|ean)",),
    "east_asian": (r"(?:wo )?hen hao|genki desu|jal jinaeyo|sabai dee",),
}

# "You're welcome", "no problem", "likewise".
WELCOME: dict[str, tuple[str, ...]] = {
    "english": (
        r"no bother(?: at all)?|no dramas|no worries(?: at all)?|not a problem|no problemo|"
        r"don't mention it|any ?time|my pleasure|(?:it was )?a pleasure|no prob|"
        r"you(?:'re| are) (?:very |most )?welcome",
    ),
    "spanish": (r"de nada|con gusto|no hay de qu[eé]|igualmente",),
    "portuguese": (r"de nada|por nada|imagina|igualmente",),
    "french": (r"de rien|je vous en prie|avec plaisir|pas de (?:quoi|souci)",),
    "italian": (r"prego|di niente|figurati|non c'[eè] di che",),
    "german": (r"bitte(?: sch[oö]n| sehr)?|gern geschehen|gerne",),
    "dutch": (r"graag gedaan|geen dank",),
    "swedish_norwegian_danish": (r"vars[aå]god|ingen orsak|bare hyggelig|selv tak",),
    "finnish": (r"ole hyv[aä]|eip[aä] kest[aä]",),
    "welsh": (r"croeso",),
    "polish": (r"nie ma za co|prosz[eę] bardzo",),
    "russian_ukrainian": (r"ne za chto|pozhaluysta|не за что|пожалуйста|будь ласка",),
    "romanian": (r"cu pl[aă]cere|n-ai pentru ce",),
    "turkish": (r"rica ederim|bir [sş]ey de[gğ]il",),
    "arabic": (r"afwan|al-?afw|عفوا",),
    "urdu_hindi": (r"koi baat nahi+n?|koi nahi|aapka swagat hai",),
    "indonesian_malay": (r"sama-?sama|sama sama|kembali kasih",),
    "tagalog": (r"walang anuman|wala pong anuman",),
    "vietnamese": (r"kh[oô]ng c[oó] g[iì]",),
    "thai": (r"mai pen rai|ไม่เป็นไร",),
    "chinese": (r"bu ?ke ?qi|不客气|不用谢",),
    "japanese": (r"dou ?itashimashite|どういたしまして",),
    "korean": (r"cheonmaneyo|천만에요|아니에요",),
    "swahili": (r"karibu(?: sana)?|si neno",),
}

# Well-wishes that end a chat ("have a nice day", "good luck") in other languages.
WELL_WISHES: dict[str, tuple[str, ...]] = {
    "english": (
        r"have a (?:good|nice|great|lovely|wonderful|blessed|safe|fab|brill) (?:day|one|evening|night|"
        r"weekend|week|arvo|afternoon|morning|trip)|safe travels|travel safe|safe journey|god bless(?: you)?|"
        r"be blessed|stay blessed|best wishes|good luck(?: to you)?|all the best|take it easy",
    ),
    "spanish": (r"buen(?:a)? (?:d[ií]a|suerte|fin de semana)|que te vaya bien|feliz d[ií]a|suerte",),
    "portuguese": (r"bom dia pra voc[eê]|boa sorte|fica com deus|fique com deus|bom fim de semana",),
    "french": (r"bonne (?:chance|journ[eé]e|soir[eé]e|continuation)|bon courage",),
    "italian": (r"buona fortuna|buona giornata|in bocca al lupo",),
    "german": (
        r"(?:einen )?sch[oö]nen (?:tag|abend)(?: noch)?|viel gl[uü]ck|alles gute|"
        r"ich hoffe,? (?:du hast|sie haben) einen sch[oö]nen (?:tag|abend)",
    ),
    "dutch": (r"fijne (?:dag|avond)|succes ermee|veel succes",),
    "swedish_norwegian_danish": (r"lycka till|ha en (?:bra|trevlig) dag|god dag videre",),
    "welsh": (r"pob lwc",),
    "polish": (r"powodzenia",),
    "russian": (r"udachi|удачи",),
    "ukrainian": (r"harnoho dnia|гарного дня|удачі",),
    "romanian": (r"o zi bun[aă]|numai bine|succes",),
    "greek": (r"kali tychi|kali mera na echeis|kalo vrady",),
    "turkish": (r"iyi [sş]anslar|kolay gelsin|iyi g[uü]nler|iyi ak[sş]amlar",),
    "arabic": (r"ma ?sha'?allah|in ?sha'?allah|alhamdulill?ah|mabrou?k|eid mubarak|barakallah(?:u)? feek",),
    "urdu_hindi": (r"khush raho|all the best ji",),
    "indonesian_malay": (r"semoga (?:sukses|berhasil)|semangat",),
    "tagalog": (r"god bless po|ingat po",),
    "vietnamese": (r"ch[uú]c (?:b[aạ]n )?(?:may m[aắ]n|m[oộ]t ng[aà]y t[oố]t l[aà]nh)",),
    "japanese": (r"ganbatte(?: kudasai)?|がんばって",),
    "korean": (r"hwaiting|화이팅|좋은 하루 (?:되세요|보내세요)",),
    "swahili": (r"kila la heri|pole sana",),
}

# Address words that follow a courtesy ("terima kasih kak", "thank you bhai", "salamat po").
ADDRESS = (
    r"kak|kakak|mas|mbak|bang|abang|gan|sis|bro|brother|bruv|bhai|bhaiya|bhaijaan|didi|dada|ji|sahib|sahab|"
    r"po|sir|ma'?am|madam|mam|ma|miss|dear|my dear|dearie|friend|my friend|mate|buddy|pal|love|hun|"
    r"hon|darling|amigo|amiga|chico|chica|hermano|irm[aã]o|querid[oa]|cara|habibi|habibti|akhi|ukhti|"
    r"anh|ch[iị]|em|b[aạ]n|krub|krap|khrap|ka|kha|san|sensei|oga|boss|boet|bru|china|chief|"
    r"man|dude|fam|y'?all|all|everyone|partner|beautiful|gorgeous|sweetie|lad|lass|pet|duck|hen|bach|"
    r"cuz|aunty|auntie|uncle|kuya|ate|sister|teman|kawan|yaar|bhabhi|beta|beti|sana|mingi|mwana|ndugu|"
    # South Indian, Swahili and European address words: "thx da", "asante rafiki", "merci mon ami"
    r"da|di|dei|machan|machi|macha|anna|akka|thambi|rafiki|mon ami|mon amie|amico|amica|vriend|kanka|abi|"
    r"abla|dost|jaan|ustad"
)

# Courtesy words that are also common words elsewhere: they count only in a whole-courtesy message.
REPLY_ONLY = (
    r"night|nite|nighty|later|laters|pa|tack|hei|halo|salam|ciao|tchau|hej|moi|yes ?i|"
    r"same|same to (?:you|u|ya)|you too|u too|and you|and to you|likewise|too"
)


def alternation(table: dict[str, tuple[str, ...]] | Iterable[str]) -> str:
    """One non-capturing regex alternation over every entry of a phrase table."""
    entries = [p for ps in table.values() for p in ps] if isinstance(table, dict) else list(table)
    return "(?:" + "|".join(f"(?:{p})" for p in entries) + ")"


def foreign(table: dict[str, tuple[str, ...]]) -> dict[str, tuple[str, ...]]:
    """The table without its English entries (English courtesy has its own rules in ``smalltalk``)."""
    return {lang: phrases for lang, phrases in table.items() if lang != "english"}


GREETING_RE = alternation(GREETINGS)
THANKS_RE = alternation(THANKS)
FAREWELL_RE = alternation(FAREWELLS)
HOW_ARE_YOU_RE = alternation(HOW_ARE_YOU)
WELCOME_RE = alternation(WELCOME)
WELL_WISHES_RE = alternation(WELL_WISHES)
WELL_BEING_RE = alternation(WELL_BEING)
FOREIGN_THANKS_RE = alternation(foreign(THANKS))
FOREIGN_FAREWELL_RE = alternation(foreign(FAREWELLS))
