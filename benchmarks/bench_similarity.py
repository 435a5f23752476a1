"""Benchmark: the lexical-similarity check of the self-check, per language, old units against new.

Usage: python benchmarks/bench_similarity.py

FrameBench (Yano and Sasano 2026, sec. 3.1) wants a base pair S_A / S_B that shares its content words as
far as possible: the paper's kind of minimal pair changes one or two content words around the same verb
("He opened the front door." / "He opened the bakery."). A loosely related pair shares the verb and
little else. For each pair written here (2 minimal and 2 loose per language, in the eleven languages of
``benchmarks/bench_verbs.py``) this prints the similarity (verb masked) with the old units (words as
written; characters for Chinese and Japanese) and with the language-aware units of
:mod:`fbagent.checks.similarity_units` (lemmas, German and Dutch compound parts, segmenter words), and
whether each passes the default threshold 0.5: a minimal pair should pass, a loose pair should not.
Prints; asserts nothing (tests/test_verb_check_languages.py pins a few values).
"""

from __future__ import annotations

from fbagent.checks.self_check import DEFAULT_SIMILARITY_THRESHOLD, normalized_similarity
from fbagent.checks.similarity_units import MASK, similarity_units
from fbagent.checks.verb_match import find_verb, sentence_tokens

# (lang, lemma, S_A, S_B, kind)
PAIRS = [
    ("en", "open", "He opened the front door.", "He opened the bakery.", "minimal"),
    ("en", "run", "She runs the small shop in town.", "She runs the small marathon in town.", "minimal"),
    ("en", "open", "He opened the front door.", "Last spring my sister finally opened her own bakery in Leeds.", "loose"),
    ("en", "run", "She runs the small shop in town.", "The children ran home as fast as they could.", "loose"),
    ("de", "öffnen", "Er öffnete die Haustür.", "Er öffnete die Bäckerei.", "minimal"),
    ("de", "laufen", "Der Motor läuft seit Stunden.", "Der Film läuft seit Stunden.", "minimal"),
    ("de", "öffnen", "Er öffnete die Haustür.", "Nach langem Zögern öffnete sie ihm endlich ihr Herz.", "loose"),
    ("de", "laufen", "Der Motor läuft seit Stunden.", "Die Kinder liefen lachend über die nasse Wiese.", "loose"),
    ("nl", "openen", "Hij opende de voordeur.", "Hij opende de bakkerij.", "minimal"),
    ("nl", "lopen", "De motor loopt al uren.", "De film loopt al uren.", "minimal"),
    ("nl", "openen", "Hij opende de voordeur.", "Na lang twijfelen opende zij eindelijk haar hart voor hem.", "loose"),
    ("nl", "lopen", "De motor loopt al uren.", "De kinderen liepen lachend over het natte gras.", "loose"),
    ("fr", "ouvrir", "Il a ouvert la porte d'entrée.", "Il a ouvert la boulangerie.", "minimal"),
    ("fr", "tourner", "Le moteur tourne depuis des heures.", "Le film tourne depuis des heures.", "minimal"),
    ("fr", "ouvrir", "Il a ouvert la porte d'entrée.", "Après une longue hésitation, elle lui ouvrit enfin son cœur.", "loose"),
    ("fr", "tourner", "Le moteur tourne depuis des heures.", "Les enfants tournaient en riant autour du vieil arbre.", "loose"),
    ("es", "abrir", "Abrió la puerta principal.", "Abrió la panadería.", "minimal"),
    ("es", "correr", "El agua corre por el pueblo.", "El rumor corre por el pueblo.", "minimal"),
    ("es", "abrir", "Abrió la puerta principal.", "Después de mucho dudar, por fin le abrió su corazón a su hermano.", "loose"),
    ("es", "correr", "El agua corre por el río.", "Los niños corrieron riendo hasta la casa de sus abuelos.", "loose"),
    ("pt", "abrir", "Ele abriu a porta da frente.", "Ele abriu a padaria.", "minimal"),
    ("pt", "correr", "A água corre pela cidade.", "O boato corre pela cidade.", "minimal"),
    ("pt", "abrir", "Ele abriu a porta da frente.", "Depois de muito hesitar, ela finalmente abriu o coração ao irmão.", "loose"),
    ("pt", "correr", "A água corre pelo rio.", "As crianças correram rindo até a casa dos avós.", "loose"),
    ("it", "aprire", "Ha aperto la porta di casa.", "Ha aperto la panetteria.", "minimal"),
    ("it", "correre", "L'acqua corre nel paese.", "La voce corre nel paese.", "minimal"),
    ("it", "aprire", "Ha aperto la porta di casa.", "Dopo molte esitazioni, lei gli ha finalmente aperto il suo cuore.", "loose"),
    ("it", "correre", "L'acqua corre nel fiume.", "I bambini correvano ridendo verso la casa dei nonni.", "loose"),
    ("sv", "öppna", "Han öppnade ytterdörren.", "Han öppnade bageriet.", "minimal"),
    ("sv", "gå", "Motorn har gått i timmar.", "Filmen har gått i timmar.", "minimal"),
    ("sv", "öppna", "Han öppnade ytterdörren.", "Efter lång tvekan öppnade hon äntligen sitt hjärta för honom.", "loose"),
    ("sv", "gå", "Motorn har gått i timmar.", "Barnen gick skrattande över den våta gräsmattan.", "loose"),
    ("ja", "開ける", "彼は玄関のドアを開けた。", "彼は店のシャッターを開けた。", "minimal"),
    ("ja", "走る", "電車が線路の上を走った。", "子供が公園の中を走った。", "minimal"),
    ("ja", "開ける", "彼は玄関のドアを開けた。", "長い間迷った後、彼女はついに兄に心を開けた。", "loose"),
    ("ja", "走る", "電車が線路の上を走った。", "昨日の夕方、近所の子供たちが笑いながら急いで家まで走った。", "loose"),
    ("zh", "打开", "他打开了前门。", "他打开了面包店。", "minimal"),
    ("zh", "跑", "水在河里跑。", "狗在河里跑。", "minimal"),
    ("zh", "打开", "他打开了前门。", "犹豫了很久以后，她终于向哥哥打开了自己的心扉。", "loose"),
    ("zh", "跑", "水在河里跑。", "孩子们笑着一路跑回了爷爷奶奶的家。", "loose"),
    ("ko", "열다", "그는 현관문을 열었다.", "그는 빵집을 열었다.", "minimal"),
    ("ko", "달리다", "기차가 선로 위를 달렸다.", "아이가 선로 위를 달렸다.", "minimal"),
    ("ko", "열다", "그는 현관문을 열었다.", "오랫동안 망설인 끝에 그녀는 마침내 오빠에게 마음을 열었다.", "loose"),
    ("ko", "달리다", "기차가 선로 위를 달렸다.", "어제 저녁 동네 아이들이 웃으면서 할머니 집까지 달렸다.", "loose"),
]


def old_units(sentence: str, lang: str, match) -> list[str]:
    """The units before issue 29: words as written (characters without spaces), verb spans masked."""
    spans = sorted(match.mask) if match.found else []
    units, used = [], set()
    for tok in sentence_tokens(sentence, lang):
        hit = next((i for i, (s, e) in enumerate(spans) if tok.start >= s and tok.end <= e), None)
        if hit is None:
            units.append(tok.text)
        elif hit not in used:
            used.add(hit)
            units.append(MASK)
    return units


def main() -> None:
    threshold = DEFAULT_SIMILARITY_THRESHOLD
    print(f"threshold {threshold}: a minimal pair should pass (>=), a loose pair should not\n")
    print(f"{'lang':<5}{'kind':<9}{'old':>6}{'new':>6}  verb found  pair")
    score = {"old": [0, 0], "new": [0, 0]}
    for lang, lemma, a, b, kind in PAIRS:
        ma, mb = find_verb(a, lemma, lang), find_verb(b, lemma, lang)
        old = normalized_similarity(old_units(a, lang, ma), old_units(b, lang, mb))
        new = normalized_similarity(similarity_units(a, lang, ma), similarity_units(b, lang, mb))
        for name, value in (("old", old), ("new", new)):
            score[name][0] += (value >= threshold) == (kind == "minimal")
            score[name][1] += 1
        print(f"{lang:<5}{kind:<9}{old:>6.2f}{new:>6.2f}  {str(ma.found and mb.found):<10}  {a} / {b}")
    for name, (ok, n) in score.items():
        print(f"{name} units: {ok}/{n} pairs on the right side of the threshold")


if __name__ == "__main__":
    main()
