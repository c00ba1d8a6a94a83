package chunk_test

import (
	"testing"

	"github.com/webinfra/webinfra/extract/chunk"
)

// cl100k holds sample texts with their real cl100k_base token counts
// (tiktoken-go v0.10.0, not a dependency of this module).
var cl100k = []struct {
	text string
	real int
}{
	{"The quick brown fox jumps over the lazy dog.", 10},
	{"Volkswagen said on Tuesday that its first all-electric hatchback would reach North American dealers next year, priced below $35,000.", 29},
	{"Researchers at the University of Washington found that the city's air quality index exceeded 450 on 12 separate days in November.", 25},
	{"Internationalization and interoperability requirements were characteristically underestimated by the committee.", 14},
	{"“I don’t think we’re there yet,” she said. “But we’re getting closer — much closer.”", 22},
	{"NASA's Jet Propulsion Laboratory (JPL) confirmed the ESA/JAXA mission will launch in 2026.", 24},
	{"func Split(page []byte, content string, opts *Options) (*Result, error) {\n\treturn nil, nil\n}", 25},
	{"See https://www.example.com/articles/2019/11/18/some-long-slug-for-an-article.html?utm_source=feed for details.", 31},
	{"- Preheat the oven to 200 °C.\n- Mix 250 g flour with 2 eggs.\n- Bake for 25–30 minutes.", 31},
	{"Nesta página você terá sempre a classificação atualizada da corrida, com todos os pilotos e suas pontuações.", 27},
	{"Die Bundesregierung hat am Mittwoch beschlossen, die Förderung für Elektrofahrzeuge deutlich zu erhöhen.", 31},
	{"Il governo italiano ha approvato ieri sera il nuovo decreto sulla sicurezza stradale e sull'ambiente.", 28},
	{"Le président de la République a annoncé mercredi une série de mesures pour soutenir les agriculteurs.", 26},
	{"Sebelum Islam pecah jadi Sunni dan Syiah, para sahabat sudah sepakat untuk tidak saling mencaci.", 27},
	{"Бывшая супермодель призналась, что боится: люди высмеивают то, как она выглядит сейчас.", 47},
	{"악녀의 덫에 걸린 이유리, 의외로 막장극 어울리는 남상미의 연기가 돋보였다.", 49},
	{"先日、不正に改造したiPhoneを販売したとして、商標法違反の疑いで20代の男性が逮捕されました。", 46},
	{"北京时间周二，国家统计局公布了十月份的经济数据，工业增加值同比增长百分之四点七。", 40},
	{"Ο πρωθυπουργός ανακοίνωσε νέα μέτρα για την οικονομία και την ενέργεια.", 61},
	{"השר הודיע היום על תוכנית חדשה לשיפור התחבורה הציבורית בעיר.", 54},
	{"وأعلنت الحكومة اليوم عن خطة جديدة لدعم الاقتصاد الوطني.", 41},
	{"प्रधानमंत्री ने आज नई आर्थिक योजना की घोषणा की।", 50},
	{"Great game tonight!!! 🎉🔥 Can't wait for the playoffs 🏀", 19},
	{"Q3 revenue: $4.2B (+12% YoY); EPS $1.37 vs. $1.21 est.; guidance 2020: $17.5–18.0B.", 43},
	{"| Pos | Driver | Points |\n| 1 | Kyle Busch | 5040 |\n| 2 | Martin Truex Jr. | 5035 |", 34},
	{"snake_case_identifiers and camelCaseIdentifiers and SCREAMING_CASE constants", 15},
}

// TestCountTokensAccuracy pins the estimate against the real tokenizer:
// within -25 %/+40 % on every sample (short texts are the hard case) and
// within 10 % in total. doc.go gives the accuracy on whole chunks.
func TestCountTokensAccuracy(t *testing.T) {
	var est, real int
	for _, s := range cl100k {
		n := chunk.CountTokens(s.text)
		est += n
		real += s.real
		if r := float64(n) / float64(s.real); r < 0.75 || r > 1.4 {
			t.Errorf("%q: estimate %d, cl100k_base %d (%.2f)", s.text, n, s.real, r)
		}
	}
	r := float64(est) / float64(real)
	t.Logf("%d samples: estimate %d, cl100k_base %d tokens (%.3f)", len(cl100k), est, real, r)
	if r < 0.9 || r > 1.1 {
		t.Errorf("total estimate %d is %.2f of cl100k_base's %d", est, r, real)
	}
}

func TestCountTokensSmall(t *testing.T) {
	for text, want := range map[string]int{
		"":       0,
		" ":      1,
		"a":      1,
		"Hello":  1,
		"\n\n":   1,
		"2019":   2,
		"hello!": 2,
	} {
		if got := chunk.CountTokens(text); got != want {
			t.Errorf("CountTokens(%q) = %d, want %d", text, got, want)
		}
	}
}
