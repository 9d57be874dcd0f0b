"""Every sentence of the Tuki rules text (seeds/000, Persian, summarised in English here) and
of RULINGS.md's Tuki section, with the tests that check it. The test below fails when a named
test disappears, so the map stays true."""

import importlib

import pytest

RULES_TEXT = {
    "Setup: choose normal or advanced; normal builds use 3 stones, advanced 4":
        ["test_tuki_game::test_levels_and_unknown_level",
         "test_tuki_cards::test_shipped_decks_load_and_check"],
    "Setup: the chosen level's cards are shuffled into the card stand":
        ["test_tuki_game::test_target_must_be_of_the_level",
         "test_tuki_game::test_void_round_card_goes_under_the_deck_same_lookout"],
    "Pieces: in 2-3 players each gets G, B, P and one of each of the four snow shapes; "
    "advanced adds orange":
        ["test_tuki_pieces::test_each_builder_gets_g_b_p_and_one_of_each_snow_shape_advanced_adds_orange"],
    "Lookout: chosen in round 1; later, whoever took the previous penalty card":
        ["test_tuki_game::test_round_1_lookout_default_first_player_or_chosen",
         "test_tuki_game::test_later_lookout_is_the_last_penalty_taker"],
    "Lookout: with four players the lookout does not build, the other three compete":
        ["test_tuki_game::test_with_4_players_the_lookout_does_not_build"],
    "Card: the lookout rolls, takes the top card and sets it with the rolled animal at the "
    "bottom":
        ["test_tuki_game::test_only_the_lookout_starts_a_round",
         "test_tuki_cards::test_fish_is_a_quarter_turn_counter_clockwise",
         "test_tuki_cards::test_eagle_is_a_quarter_turn_clockwise",
         "test_tuki_cards::test_bear_is_as_printed",
         "test_tuki_properties::test_fish_then_eagle_gives_back_the_card"],
    "Die: no white square: at least one coloured stone touches the table":
        ["test_tuki_judge::test_plain_face_needs_a_stone_on_the_table",
         "test_tuki_judge::test_table_band"],
    "Die: white square: all coloured stones stand on snow, none touches the table":
        ["test_tuki_judge::test_white_square_forbids_the_table",
         "test_tuki_judge::test_table_band"],
    "Building starts for all at once when the card is in the stand":
        ["test_tuki_game::test_building_starts_for_everyone_at_once"],
    "Position, orientation and contact of the coloured stones must match the card exactly":
        ["test_tuki_judge::test_offset_tolerances",
         "test_tuki_judge::test_orientation_fault",
         "test_tuki_judge::test_contact_gaps_in_mm",
         "test_tuki_properties::test_moving_one_stone_by_one_unit_is_wrong_and_names_it"],
    "Each stone has 5 equal segments; the lines show where joints go":
        ["test_tuki_pieces::test_stone_is_five_equal_segments_of_the_unit",
         "test_tuki_cards::test_letter_count_is_named"],
    "Snow: the card shows only coloured stones; snow is used freely, not all of it":
        ["test_tuki_properties::test_build_equal_to_target_up_to_translation_is_correct",
         "test_tuki_judge::test_measured_stone_fields_are_used_not_the_grid"],
    "Done: a player who declares done may not change pieces any more":
        ["test_tuki_game::test_done_may_not_be_declared_twice"],
    "Done: the others go on until only one player is still building":
        ["test_tuki_game::test_round_ends_when_one_builder_is_left_who_finishes_last"],
    "Check: all builds are compared with the card; all correct: the last to finish takes it":
        ["test_tuki_game::test_all_correct_last_builder_takes_the_card"],
    "Fault: only one wrong: that player takes the card, even if not last":
        ["test_tuki_game::test_exactly_one_wrong_takes_it_wherever_they_finished"],
    "Fault: several wrong: the earliest to declare done among them takes it":
        ["test_tuki_game::test_several_wrong_the_first_declared_takes_it"],
    "Next round: the penalty taker is the lookout; in four players they hand their pieces to "
    "the old lookout":
        ["test_tuki_game::test_later_lookout_is_the_last_penalty_taker",
         "test_tuki_game::test_four_player_hand_over"],
    "Two players: the 5th penalty card ends the game at once; fewer cards wins":
        ["test_tuki_game::test_two_players_fifth_card_ends_at_once_fewer_cards_win"],
    "Three or four players: the 5th card calls one final round; that player is lookout and "
    "does not build; the first correct build wins":
        ["test_tuki_game::test_three_players_fifth_card_calls_the_final_round",
         "test_tuki_game::test_final_round_first_correct_build_wins_at_once"],
}

RULINGS = {
    "Players: 2-4": ["test_tuki_game::test_two_to_four_players"],
    "Players: with 2-3 everyone builds, the lookout too":
        ["test_tuki_game::test_with_2_or_3_players_everyone_builds_the_lookout_too"],
    "Players: with 4 the lookout does not build; the box has three sets":
        ["test_tuki_game::test_with_4_players_the_lookout_does_not_build",
         "test_tuki_pieces::test_each_builder_gets_g_b_p_and_one_of_each_snow_shape_advanced_adds_orange"],
    "Levels: normal G B P; advanced G B P O with the advanced cards":
        ["test_tuki_game::test_levels_and_unknown_level",
         "test_tuki_game::test_target_must_be_of_the_level"],
    "Stations: a station belongs to a build place, not a player":
        ["test_tuki_game::test_stations_belong_to_places"],
    "Stations: in the 4-player hand-over the old lookout builds at the place the new left":
        ["test_tuki_game::test_four_player_hand_over"],
    "Lookout: round 1 the table chooses, by default the first player":
        ["test_tuki_game::test_round_1_lookout_default_first_player_or_chosen"],
    "Lookout: later rounds, the player who took the last penalty card":
        ["test_tuki_game::test_later_lookout_is_the_last_penalty_taker"],
    "Lookout: with 4 players the new lookout hands their pieces to the old one":
        ["test_tuki_game::test_four_player_hand_over"],
    "Round 1: the lookout rolls and sets the next card with the rolled animal down":
        ["test_tuki_game::test_round_start_sets_card_die_and_target",
         "test_tuki_game::test_only_the_lookout_starts_a_round"],
    "Round 2: building starts for everyone at once":
        ["test_tuki_game::test_building_starts_for_everyone_at_once"],
    "Round 3: done means no more touching; the photo of that moment is kept":
        ["test_tuki_game::test_done_may_not_be_declared_twice"],
    "Round 4: ends when one builder is left, who finishes last; with 2 the first declaration "
    "ends it":
        ["test_tuki_game::test_round_ends_when_one_builder_is_left_who_finishes_last",
         "test_tuki_game::test_with_two_builders_the_first_declaration_ends_the_round"],
    "Round 5: the lookout may void a round; the card goes under the deck; same lookout":
        ["test_tuki_game::test_void_round_card_goes_under_the_deck_same_lookout"],
    "Penalty: all correct, the last builder":
        ["test_tuki_game::test_all_correct_last_builder_takes_the_card"],
    "Penalty: exactly one wrong, its builder wherever they finished":
        ["test_tuki_game::test_exactly_one_wrong_takes_it_wherever_they_finished"],
    "Penalty: several wrong, the first declared among them":
        ["test_tuki_game::test_several_wrong_the_first_declared_takes_it"],
    "Penalty: an unsure build waits for the lookout's decision":
        ["test_tuki_game::test_unsure_waits_for_the_lookout"],
    "Penalty: the lookout's own unsure build: the others decide, a tie is correct":
        ["test_tuki_game::test_lookouts_own_unsure_build_the_others_decide_tie_correct",
         "test_tuki_game::test_lookouts_unsure_build_two_players_the_other_decides"],
    "End with 2: the 5th card ends the game at once; fewer cards wins":
        ["test_tuki_game::test_two_players_fifth_card_ends_at_once_fewer_cards_win"],
    "End with 3-4: one final round; that player is lookout and does not build":
        ["test_tuki_game::test_three_players_fifth_card_calls_the_final_round"],
    "Final round: each done judged at once; the first correct build wins":
        ["test_tuki_game::test_final_round_first_correct_build_wins_at_once",
         "test_tuki_game::test_final_round_earlier_unsure_build_is_waited_for"],
    "Final round: a wrong build is out; it does not end with one builder left":
        ["test_tuki_game::test_final_round_does_not_end_with_one_builder_left"],
    "Final round: all out: another final round, new card, same lookout":
        ["test_tuki_game::test_final_round_all_out_plays_another_with_the_same_lookout"],
}


@pytest.mark.parametrize("sentence,tests", list(RULES_TEXT.items()) + list(RULINGS.items()))
def test_every_rule_sentence_names_existing_tests(sentence, tests):
    assert tests, sentence
    for ref in tests:
        module, func = ref.split("::")
        mod = importlib.import_module(f"{__package__}.{module}")
        assert callable(getattr(mod, func, None)), f"{sentence!r}: no test {ref}"
