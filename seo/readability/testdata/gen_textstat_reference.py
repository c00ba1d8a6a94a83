#!/usr/bin/env python3
"""Regenerate textstat-0.7.4.json: real textstat values for the *.txt texts here.

The Go package reproduces textstat 0.7.4, the last release whose syllable
counter is pyphen alone (0.7.5 onwards consult the CMU dictionary first).
This script runs textstat 0.7.4 itself, with pyphen's en_US dictionary
pointed at ../hyph_en_US.dic (the file pyphen ships on PyPI, embedded by the
Go package), so the reference is what `pip install textstat==0.7.4` computes.

How the committed JSON was produced (no PyPI needed):

    apt-get install python3-pyphen            # Debian bookworm: pyphen 0.13.2
    git clone https://github.com/textstat/textstat /tmp/textstat
    mkdir /tmp/textstat-0.7.4
    git -C /tmp/textstat archive 0.7.4 | tar -x -C /tmp/textstat-0.7.4
    cd seo/readability/testdata
    PYTHONPATH=/tmp/textstat-0.7.4 /usr/bin/python3 gen_textstat_reference.py > textstat-0.7.4.json

With an argument, the path of the shared article benchmark's ground-truth.json
(181 real article bodies, MIT, Zyte), it scores every articleBody instead:

    PYTHONPATH=/tmp/textstat-0.7.4 /usr/bin/python3 gen_textstat_reference.py \
        ../../../../shared/testdata/article-extraction-benchmark/ground-truth.json \
        > textstat-0.7.4-articles.json
"""

import glob
import json
import os
import sys

import pyphen

HERE = os.path.dirname(os.path.abspath(__file__))
pyphen.LANGUAGES["en_US"] = os.path.join(HERE, "..", "hyph_en_US.dic")
pyphen.LANGUAGES["en"] = pyphen.LANGUAGES["en_US"]

import textstat  # noqa: E402  (after the dictionary is pinned)


def measure(text):
    return {
        "flesch_reading_ease": textstat.flesch_reading_ease(text),
        "flesch_kincaid_grade": textstat.flesch_kincaid_grade(text),
        "gunning_fog": textstat.gunning_fog(text),
        "smog_index": textstat.smog_index(text),
        "automated_readability_index": textstat.automated_readability_index(text),
        "coleman_liau_index": textstat.coleman_liau_index(text),
        "dale_chall_readability_score": textstat.dale_chall_readability_score(text),
        "reading_time_seconds": textstat.reading_time(text),
        "sentences": textstat.sentence_count(text),
        "words": textstat.lexicon_count(text),
        "syllables": textstat.syllable_count(text),
        "characters": textstat.char_count(text),
        "letters": textstat.letter_count(text),
        "polysyllables": textstat.polysyllabcount(text),
        "difficult_words": textstat.difficult_words(text),
    }


def main():
    out = {
        "tool": "textstat 0.7.4 (git tag 0.7.4) with pyphen %s and pyphen's PyPI hyph_en_US.dic"
        % getattr(pyphen, "VERSION", "?"),
        "python": sys.version.split()[0],
        "texts": {},
    }
    if len(sys.argv) > 1:
        with open(sys.argv[1], encoding="utf-8") as f:
            truth = json.load(f)
        for page_id in sorted(truth):
            body = truth[page_id]["articleBody"]
            if body.strip():
                out["texts"][page_id] = measure(body)
    else:
        for path in sorted(glob.glob(os.path.join(HERE, "*.txt"))):
            with open(path, encoding="utf-8") as f:
                text = f.read()
            out["texts"][os.path.basename(path)] = measure(text)
    json.dump(out, sys.stdout, indent=2, sort_keys=True)
    sys.stdout.write("\n")


if __name__ == "__main__":
    main()
