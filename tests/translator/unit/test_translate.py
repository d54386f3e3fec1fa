"""translate.py: the translator's front door."""
from cpc import pipeline
from cpc import translate

HDR = '#include <cpc/cpc_runtime.h>\n'


def test_the_front_door_is_the_pipeline_s():
    assert (translate.translate, translate.parse, translate.stage_names) == \
        (pipeline.translate, pipeline.parse, pipeline.stage_names)
    out = translate.translate((HDR + 'cps void w(void) { cpc_yield(); }\n').encode(), 't.cpc')
    assert 'cpc_continuation *w__cps(cpc_continuation *cpc_k)' in out
