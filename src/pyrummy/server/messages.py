"""The server's own messages (errors of the HTTP layer), in English and Russian.

Errors of the game itself come from the rules core's catalogue
(:mod:`pyrummy.core.messages`); these are the ones only a server has: tokens,
unknown tables, malformed requests.

>>> server_text("seat.not_your_turn", "ru", seat=2)
'сейчас не ваш ход: ходит игрок 2'
>>> pick_language("ru-RU,ru;q=0.9,en;q=0.8"), pick_language(None), pick_language("de, en")
('ru', 'en', 'en')
"""

from __future__ import annotations

from typing import Final

LANGUAGES: Final = ("en", "ru")

_CATALOGUE: Final[dict[str, dict[str, str]]] = {
    "en": {
        "table.not_found": "there is no table {table}",
        "table.not_over": "the match at table {table} is not over yet: replays open when it ends",
        "match.over": "the match is over: no more actions",
        "seat.token_missing": "this action needs your seat token (cookie or X-Seat-Token header)",
        "seat.token_bad": "this token does not belong to any seat at this table",
        "seat.not_your_turn": "it is not your turn: player {seat} is to play",
        "seat.is_bot": "seat {seat} is played by a bot",
        "room.not_found": "there is no room {code}: check the code",
        "room.full": "room {code} is full: you can watch the game",
        "room.started": "the game in room {code} has started: you can watch it",
        "room.closed": "room {code} was closed by its creator",
        "room.not_creator": "only the room's creator may do this",
        "room.seats_missing": "seats {seats} are still open: wait for friends or seat a bot",
        "room.seat_taken": "seat {seat} is a person's",
        "room.no_seat": "there is no seat {seat}",
        "room.one_you": "exactly one seat must be yours",
        "room.no_friend": "a table for friends needs at least one open seat",
        "room.bad_bot": "unknown bot {bot}",
        "room.bad_grace": "the grace period is one of {choices} seconds",
        "room.bad_timer": "the turn timer is one of {choices} seconds",
        "room.changed": "the room changed meanwhile: please try again",
        "room.not_started": "the game in room {code} has not started",
        "room.not_over": "the match in room {code} is not over yet",
        "room.chat_too_fast": "too many messages: wait a moment",
        "request.too_large": "the request is too large: at most {limit} bytes",
        "request.invalid": "invalid request: {detail}",
        "request.bad_json": "the request body is not valid JSON: {detail}",
        "request.bad_cards": "{detail}",
        "request.bad_rules": "{detail}",
        "request.bad_seats": "{detail}",
        "replay.bad_step": "step {step} is outside 0-{last}",
        "table.seed_forbidden": "this server deals only unpredictable cards: no seed may be chosen",
        "seat.stale": "the table has moved on to event {seq}: reload the state and try again",
        "server.busy": "the action could not be stored; nothing changed, please try again",
        "not_found": "not found: {path}",
        "request.rate_limited": "too many requests: try again in {wait} s",
        "profile.rate_limited": "too many new profiles from this address: try again in {wait} s",
        "table.too_many_yours": "you already have {limit} unfinished tables: finish one first",
        "table.server_full": "the server is full ({limit} unfinished tables): try again later",
        "table.bot_only_forbidden": "this server has no tables of bots only: sit a person",
        "seat.token_in_url": "the seat token must not be in the URL: send it in a header",
        "table.closed": "table {table} was closed: nobody played for too long",
        "table.broken": "table {table} cannot be loaded and is set aside",
        "profile.none": "you have no profile here yet: it is made when you first play",
        "ratings.unknown_game": "there is no game {game}: no leaderboard",
        "profile.already_seated": "your profile already sits at this table (seat {seat})",
        "passkey.not_here": "passkeys work on {rp_id} only, not on this address",
        "passkey.challenge_bad": "this passkey request expired or was used already: try again",
        "passkey.bad_answer": "the passkey's answer is not valid: {detail}",
        "passkey.unknown": "this passkey belongs to no profile here",
        "passkey.known": "this passkey is registered already",
        "passkey.not_found": "your profile has no such passkey",
        "quick.bad_game": "there is no quick match for {game} with {players} players",
        "quick.bad_bot": "the {bot} bot does not play this game with {players} players",
        "quick.bad_wait": "the wait before bots is 0-{limit} seconds, or none",
        "quick.not_queued": "you are not waiting for a quick match (left, seated or timed out)",
        "quick.ticket_missing": "this needs your queue ticket (cookie or X-Queue-Ticket header)",
        "quick.already_queued": (
            "you are already waiting for a quick match ({game}, {players} players):"
            " leave that queue first"
        ),
        "quick.seated": "you are seated at table {table} already: play there, or resign",
        "quick.cooldown": (
            "rated matches you left within a day: {leaves}; quick match opens again in"
            " {minutes} min"
        ),
    },
    "ru": {
        "table.not_found": "стола {table} нет",
        "table.not_over": "партия за столом {table} ещё идёт: запись откроется после её конца",
        "match.over": "партия окончена: ходов больше нет",
        "seat.token_missing": (
            "для этого нужен ключ вашего места (cookie или заголовок X-Seat-Token)"
        ),
        "seat.token_bad": "этот ключ не подходит ни к одному месту за этим столом",
        "seat.not_your_turn": "сейчас не ваш ход: ходит игрок {seat}",
        "seat.is_bot": "за место {seat} играет бот",
        "room.not_found": "комнаты {code} нет: проверьте код",
        "room.full": "комната {code} заполнена: можно смотреть игру",
        "room.started": "игра в комнате {code} уже началась: можно смотреть",
        "room.closed": "комнату {code} закрыл её создатель",
        "room.not_creator": "это может только создатель комнаты",
        "room.seats_missing": "места {seats} ещё свободны: дождитесь друзей или посадите бота",
        "room.seat_taken": "место {seat} занято человеком",
        "room.no_seat": "места {seat} нет",
        "room.one_you": "ровно одно место должно быть вашим",
        "room.no_friend": "для игры с друзьями нужно хотя бы одно свободное место",
        "room.bad_bot": "бота {bot} нет",
        "room.bad_grace": "время ожидания — одно из: {choices} секунд",
        "room.bad_timer": "время на ход — одно из: {choices} секунд",
        "room.changed": "комната за это время изменилась: попробуйте ещё раз",
        "room.not_started": "игра в комнате {code} ещё не началась",
        "room.not_over": "партия в комнате {code} ещё не окончена",
        "room.chat_too_fast": "слишком много сообщений: подождите немного",
        "request.too_large": "слишком большой запрос: не больше {limit} байт",
        "request.invalid": "неверный запрос: {detail}",
        "request.bad_json": "тело запроса — не JSON: {detail}",
        "request.bad_cards": "{detail}",
        "request.bad_rules": "{detail}",
        "request.bad_seats": "{detail}",
        "replay.bad_step": "шага {step} нет: допустимо от 0 до {last}",
        "table.seed_forbidden": "этот сервер сдаёт только непредсказуемо: выбрать seed нельзя",
        "seat.stale": "за столом уже событие {seq}: обновите состояние и попробуйте ещё раз",
        "server.busy": "ход не удалось сохранить; ничего не изменилось, попробуйте ещё раз",
        "not_found": "не найдено: {path}",
        "request.rate_limited": "слишком много запросов: повторите через {wait} с",
        "profile.rate_limited": "слишком много новых профилей с этого адреса: повторите через {wait} с",
        "table.too_many_yours": "у вас уже {limit} неоконченных столов: сначала доиграйте",
        "table.server_full": "сервер полон ({limit} неоконченных столов): зайдите позже",
        "table.bot_only_forbidden": "на этом сервере нет столов из одних ботов: посадите игрока",
        "seat.token_in_url": "ключ места нельзя передавать в адресе: пошлите его в заголовке",
        "table.closed": "стол {table} закрыт: слишком долго никто не ходил",
        "table.broken": "стол {table} не загружается и отложен",
        "profile.none": "у вас здесь ещё нет профиля: он появится с первой игрой",
        "ratings.unknown_game": "игры {game} нет: нет и таблицы рейтинга",
        "profile.already_seated": "ваш профиль уже сидит за этим столом (место {seat})",
        "passkey.not_here": "ключи доступа работают только на {rp_id}, не на этом адресе",
        "passkey.challenge_bad": "запрос ключа доступа устарел или уже использован: попробуйте ещё раз",
        "passkey.bad_answer": "ответ ключа доступа неверен: {detail}",
        "passkey.unknown": "этот ключ доступа не принадлежит ни одному профилю здесь",
        "passkey.known": "этот ключ доступа уже зарегистрирован",
        "passkey.not_found": "у вашего профиля нет такого ключа доступа",
        "quick.bad_game": "быстрой игры в {game} на {players} игроков нет",
        "quick.bad_bot": "бот {bot} не играет в эту игру на {players} игроков",
        "quick.bad_wait": "ожидание перед ботами — от 0 до {limit} секунд, или без ботов",
        "quick.not_queued": "вы не ждёте быструю игру (вышли, сели за стол или время вышло)",
        "quick.ticket_missing": "для этого нужен ваш билет очереди (cookie или X-Queue-Ticket)",
        "quick.already_queued": (
            "вы уже ждёте быструю игру ({game}, игроков: {players}): сначала выйдите из той очереди"
        ),
        "quick.seated": "вы уже сидите за столом {table}: играйте там или сдайтесь",
        "quick.cooldown": (
            "рейтинговых партий, покинутых за сутки: {leaves}; быстрая игра откроется через"
            " {minutes} мин"
        ),
    },
}


def server_text(key: str, lang: str = "en", **params: object) -> str:
    """The server message ``key`` in ``lang`` (English when the language is unknown)."""
    templates = _CATALOGUE.get(lang, _CATALOGUE["en"])
    return templates[key].format(**params)


def pick_language(accept_language: str | None, query_lang: str | None = None) -> str:
    """``lang`` from the query if given, else the first of ours in Accept-Language."""
    if query_lang in LANGUAGES:
        return str(query_lang)
    if accept_language:
        for part in accept_language.split(","):
            code = part.split(";")[0].strip().lower()[:2]
            if code in LANGUAGES:
                return code
    return "en"
