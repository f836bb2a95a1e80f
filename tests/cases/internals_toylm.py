"Contract cases for trustnb.internals.toylm (the chapter-2 foundation)."
from contract import Case
from trustnb.internals import toylm as TL

_ct = TL.CopyTransform(n_symbols=6, min_len=3, max_len=3)
_lm = TL.train_toy_lm(_ct, n_layer=1, d_model=8, n_head=2, n_ctx=16, steps=1, batch_size=2, cache=False)
_ex = _ct.sample(3, seed=0)
_rq = TL.Requests(n_harmful=2, n_harmless=3, n_borderline=1)

CASES = [
    Case(TL.Vocab, dict(symbols=['a', 'b', '<UP>']), then=lambda v: v.encode(['<bos>', 'a'])),
    Case(TL.ToyLanguage, dict()),
    Case(TL.CopyTransform, dict(n_symbols=6, min_len=2, max_len=3, instructions=('<UP>', '<REV>'), p_instruction=0.5, p_compose=0.5),
         kinds=dict(n_symbols='count', min_len='count', max_len='count', p_instruction='prob', p_compose='prob'),
         then=lambda l: [e.answer for e in l.sample(4, seed=0)]),
    Case(TL.Requests, dict(n_harmful=2, n_harmless=3, n_borderline=1, min_len=2, max_len=3, p_kinds=(0.3, 0.5, 0.2), p_borderline_refuse=0.5),
         kinds=dict(n_harmful='count', n_harmless='count', n_borderline='count', min_len='count', max_len='count', p_borderline_refuse='prob'),
         then=lambda l: [e.answer for e in l.sample(4, seed=0)]),
    Case(TL.train_toy_lm, dict(language=_ct, n_layer=1, d_model=8, n_head=2, n_ctx=16, steps=1, batch_size=2, lr=1e-3, seed=0, cache=False),
         kinds=dict(n_layer='count', d_model='count', n_head='count', n_ctx='count', steps='count', batch_size='count', lr='positive', seed='nonneg'),
         then=lambda lm: lm.vocab.tokens),
    Case(TL.encode_prompts, dict(lm=_lm, examples=_ex)),
    Case(TL.generate, dict(lm=_lm, examples=_ex, max_new_tokens=3, temperature=1.0, seed=0),
         kinds=dict(max_new_tokens='count', temperature='positive', seed='nonneg')),
    Case(TL.answer_accuracy, dict(lm=_lm, examples=_ex, max_new_tokens=3), kinds=dict(max_new_tokens='count')),
    Case(TL.perplexity, dict(lm=_lm, examples=_ex)),
    Case(TL.first_token_rate, dict(lm=_lm, examples=_ex, token='<eos>')),
]
EXEMPT = {
    'trustnb.internals.toylm.toy_lm': 'loads (or, on a first run, trains for 600-1000 steps) a standard model; its arguments are validated '
                                      'by train_toy_lm (covered) and its `name` in notebook 20\'s bad-input cell',
}
