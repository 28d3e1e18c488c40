import pytest

from engine.errors import ConfigError
from engine.settings import FeatureFlags, Settings, data_dir, load_settings, parse_flags, save_settings


def test_data_dir_follows_chartside_home(chartside_home):
    assert data_dir() == chartside_home


def test_defaults_are_the_full_system_with_seed_numbers():
    settings = load_settings()
    assert all(getattr(settings.features, name) for name in FeatureFlags.model_fields)
    assert settings.cache.similarity_threshold == 0.85
    assert settings.refine.quality_threshold == 0.5
    assert settings.refine.max_iterations == 2
    assert settings.refine.duplicate_jaccard == 0.8
    assert settings.refine.min_improvement == 0.05
    assert settings.context.total_budget == 4000
    assert settings.retrieval.rrf_k == 60
    assert (settings.retrieval.k_simple, settings.retrieval.k_moderate, settings.retrieval.k_complex) == (3, 8, 15)


def test_settings_round_trip_through_toml(chartside_home):
    settings = Settings()
    settings.llm.n_gpu_layers = -1
    settings.features.self_refine = False
    settings.ui.language = "en"
    save_settings(settings)
    assert (chartside_home / "settings.toml").exists()
    assert load_settings() == settings


def test_invalid_settings_file_is_a_named_error(chartside_home):
    (chartside_home / "settings.toml").write_text("[llm]\nn_gpu_layers = 'many'\n")
    with pytest.raises(ConfigError):
        load_settings()


def test_flag_overrides():
    settings = Settings().with_flags(parse_flags("self_refine=false, response_cache=0"))
    assert settings.features.self_refine is False and settings.features.response_cache is False
    assert Settings().features.self_refine is True
    with pytest.raises(ConfigError):
        Settings().with_flags({"warp_drive": True})
    with pytest.raises(ConfigError):
        parse_flags("self_refine=maybe")
