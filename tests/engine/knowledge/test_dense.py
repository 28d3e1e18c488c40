import numpy as np

from engine.knowledge import make_embedder
from engine.settings import Settings


def test_an_int8_index_vector_does_not_depend_on_the_texts_embedded_with_it():
    embedder = make_embedder(Settings())
    assert embedder.backend == "torch-int8" and embedder.fingerprint.endswith(":alone:seq128")
    gout = "Gout is caused by uric acid crystals that build up in a joint."
    long_page = " ".join(["Asthma is a chronic disease of the airways that makes breathing hard at times."] * 6)

    def vectors(texts):
        return embedder.embed_documents(texts, progress=lambda done, total: None)

    alone = vectors([gout])[0]
    assert np.allclose(vectors([gout, long_page, "Rest."])[0], alone, atol=1e-6)
    assert np.allclose(vectors([long_page, gout])[1], alone, atol=1e-6)


def test_the_knowledge_index_embeds_its_chunks_through_embed_documents(tmp_path):
    from engine.knowledge.store import KnowledgeBase
    from tests.engine.knowledge.conftest import HashingEmbedder

    class DocumentsApart(HashingEmbedder):
        def embed_documents(self, texts, progress=None, cancelled=None):
            self.apart = list(texts)
            return self.embed(texts)

    embedder = DocumentsApart()
    vectors = KnowledgeBase(tmp_path, embedder)._embed(["Gout is caused by uric acid."], None, None)
    assert embedder.apart == ["Gout is caused by uric acid."] and vectors.shape == (1, embedder.dimension)
