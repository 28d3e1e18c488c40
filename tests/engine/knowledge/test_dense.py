import numpy as np

from engine.knowledge import make_embedder
from engine.settings import Settings


def test_an_int8_document_vector_does_not_depend_on_the_texts_embedded_with_it():
    embedder = make_embedder(Settings())
    assert embedder.backend == "torch-int8" and embedder.fingerprint.endswith(":alone:seq128")
    gout = "Gout is caused by uric acid crystals that build up in a joint."
    long_page = " ".join(["Asthma is a chronic disease of the airways that makes breathing hard at times."] * 6)

    def vectors(texts):
        return embedder.embed(texts, progress=lambda done, total: None)

    alone = vectors([gout])[0]
    assert np.allclose(vectors([gout, long_page, "Rest."])[0], alone, atol=1e-6)
    assert np.allclose(vectors([long_page, gout])[1], alone, atol=1e-6)
