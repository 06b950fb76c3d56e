//! Hand-written building blocks of the synthetic world: topics, sentences in six languages,
//! names, places and web sources. Texts are composed from these so posts read like posts.

/// Languages of the world, in the order used by `Lang` indices.
pub const LANGS: [&str; 6] = ["en", "es", "fr", "de", "pt", "ja"];

/// How users are spread over languages (per mille).
pub const LANG_WEIGHTS: [u32; 6] = [480, 150, 100, 90, 90, 90];

pub struct Topic {
    pub key: &'static str,
    /// Plain-language name used in summaries.
    pub name: &'static str,
    /// English words that identify the topic in a prompt.
    pub keywords: &'static [&'static str],
    /// Hashtags without `#`, shared by all languages.
    pub hashtags: &'static [&'static str],
    /// Extra hashtags per language (same order as `LANGS`).
    pub local_hashtags: [&'static [&'static str]; 6],
    /// Post sentences per language (same order as `LANGS`). `{n}` becomes a number.
    pub sentences: [&'static [&'static str]; 6],
    /// Subjects for web pages about the topic (English).
    pub subjects: &'static [&'static str],
    /// Subreddit for the topic.
    pub subreddit: &'static str,
    /// Cashtags sometimes attached to posts.
    pub symbols: &'static [&'static str],
}

pub const TOPICS: &[Topic] = &[
    Topic {
        key: "ai",
        name: "artificial intelligence",
        keywords: &["ai", "artificial", "intelligence", "llm", "model", "models", "machine", "learning", "gpu", "neural", "chatbot", "agents", "openai", "inference", "training"],
        hashtags: &["AI", "MachineLearning", "LLM", "OpenSource", "GenerativeAI", "DeepLearning", "GPU", "AIAgents"],
        local_hashtags: [&["AISafety", "Bittensor"], &["IA", "InteligenciaArtificial"], &["IA", "IntelligenceArtificielle"], &["KI", "KünstlicheIntelligenz"], &["IA", "InteligenciaArtificial"], &["人工知能", "生成AI"]],
        sentences: [
            &[
                "Open-weight language models are now within {n}% of the closed ones on most benchmarks.",
                "Spent the weekend fine-tuning a small model on my own notes and it is surprisingly useful.",
                "Inference costs dropped again this quarter. Training is still where the money burns.",
                "Every AI agent demo works great until it meets a real login form.",
                "GPU prices are finally coming down, but the waiting lists for H100 clusters are still {n} weeks long.",
                "Benchmarks saturate faster than we can write new ones. We need better evals.",
                "Running a 7B model locally on a laptop would have sounded like science fiction three years ago.",
                "The decentralized AI networks are getting serious about incentive design.",
                "Reminder that a chatbot confidently citing a paper does not mean the paper exists.",
                "New paper shows retrieval beats a {n}x larger model on factual questions.",
            ],
            &[
                "Los modelos de lenguaje abiertos ya están a un {n}% de los cerrados en casi todas las pruebas.",
                "La inteligencia artificial en la sanidad pública avanza más rápido de lo que pensábamos.",
                "Probé un agente de IA para organizar mi correo y sinceramente me ahorró {n} minutos al día.",
                "El coste de entrenar modelos sigue siendo una barrera para las universidades.",
                "Hace falta una regulación de la IA que no asfixie a las startups europeas.",
            ],
            &[
                "Les modèles de langage ouverts rattrapent les modèles fermés, l'écart n'est plus que de {n}%.",
                "L'intelligence artificielle entre dans les écoles, et personne n'a formé les enseignants.",
                "Le coût de l'inférence baisse chaque trimestre, c'est une vraie révolution pour les PME.",
                "Encore un assistant IA qui invente des sources. Vérifiez toujours.",
                "La France veut devenir un champion de l'IA open source, les annonces se multiplient.",
            ],
            &[
                "Offene Sprachmodelle liegen nur noch {n}% hinter den geschlossenen Modellen.",
                "Künstliche Intelligenz im Mittelstand: viele Pilotprojekte, wenig im echten Betrieb.",
                "Die Rechenkosten für das Training großer Modelle bleiben das eigentliche Problem.",
                "KI-Agenten sind beeindruckend, solange niemand ein Formular ausfüllen muss.",
                "Der AI Act tritt in Kraft und viele Firmen wissen noch nicht, was das für sie bedeutet.",
            ],
            &[
                "Os modelos de linguagem abertos já estão a {n}% dos fechados nos principais testes.",
                "A inteligência artificial chegou aos escritórios de advocacia e ninguém quer admitir.",
                "Treinar modelos ainda custa caro demais para as universidades brasileiras.",
                "Testei um agente de IA para planejar viagens e ele acertou quase tudo.",
                "Precisamos falar sobre o consumo de energia dos centros de dados de IA.",
            ],
            &[
                "オープンな言語モデルが商用モデルとの差を{n}%まで縮めた。",
                "生成AIで議事録作成が本当に楽になった。",
                "AIエージェントはデモでは完璧だけど、実務ではまだ課題が多い。",
                "GPUの価格がやっと下がり始めた。",
                "人工知能の規制について国会で議論が始まった。",
            ],
        ],
        subjects: &["open-weight language models", "AI agents", "GPU supply", "retrieval-augmented generation", "AI regulation", "model evaluation benchmarks", "decentralized AI networks", "on-device inference", "AI safety research", "synthetic training data"],
        subreddit: "MachineLearning",
        symbols: &["NVDA", "TAO", "MSFT"],
    },
    Topic {
        key: "climate",
        name: "climate and energy",
        keywords: &["climate", "energy", "solar", "wind", "emissions", "carbon", "heatwave", "warming", "renewable", "renewables", "battery", "flood", "drought", "cop"],
        hashtags: &["ClimateAction", "Renewables", "SolarPower", "ClimateCrisis", "EnergyTransition", "Heatwave", "NetZero"],
        local_hashtags: [&["COP30", "ClimateScience"], &["CambioClimático", "OlaDeCalor"], &["Climat", "Canicule"], &["Klimaschutz", "Energiewende"], &["MudançasClimáticas", "Amazônia"], &["気候変動", "猛暑"]],
        sentences: [
            &[
                "Solar just covered {n}% of the grid at noon today. A record, again.",
                "Another heatwave, another round of 'this is the new normal'. It is.",
                "Battery storage installations doubled this year and nobody is talking about it.",
                "Carbon capture is not a plan, it is a hope with a press release.",
                "The flood maps for my city were redrawn and my street is now in the red zone.",
                "Offshore wind auctions failed again because the contracts ignore inflation.",
                "Emissions fell {n}% in the power sector while the economy grew. Decoupling is real.",
                "Heat pumps outsold gas boilers for the first time in the region.",
                "The drought is hitting hydro power hard this summer.",
            ],
            &[
                "La ola de calor deja temperaturas de {n} grados en el sur.",
                "La energía solar ya cubre buena parte de la demanda en las horas centrales.",
                "La sequía obliga a restringir el riego en varias comarcas.",
                "Las renovables bajan el precio de la luz, pero la red no da abasto.",
                "El cambio climático ya no es futuro, es la factura del seguro de este año.",
            ],
            &[
                "Nouvelle canicule, {n} départements en vigilance rouge.",
                "Le solaire a battu un record de production ce week-end.",
                "La sécheresse menace les récoltes dans tout le sud-ouest.",
                "La transition énergétique avance, mais le réseau électrique doit suivre.",
                "Les émissions baissent enfin dans l'industrie, lentement.",
            ],
            &[
                "Die Energiewende braucht schnellere Genehmigungen für Windräder.",
                "Photovoltaik deckt heute Mittag {n}% des Strombedarfs.",
                "Der Hitzesommer trifft die Landwirtschaft härter als erwartet.",
                "Wärmepumpen werden günstiger, die Nachfrage zieht wieder an.",
                "Das Hochwasser zeigt, wie schlecht wir auf Extremwetter vorbereitet sind.",
            ],
            &[
                "O desmatamento na Amazônia caiu {n}% em relação ao ano passado.",
                "A energia solar já é a segunda maior fonte da matriz elétrica.",
                "Onda de calor deixa várias capitais em alerta.",
                "As enchentes mostraram o custo real das mudanças climáticas.",
                "Os parques eólicos do Nordeste batem recorde de geração.",
            ],
            &[
                "今年の夏は観測史上最も暑い夏になった。",
                "太陽光発電の比率が{n}%を超えた。",
                "猛暑で電力需給がひっ迫している。",
                "洋上風力の入札結果が発表された。",
                "気候変動対策の新しい目標が決まった。",
            ],
        ],
        subjects: &["solar power records", "battery storage", "heatwaves", "offshore wind auctions", "carbon capture", "heat pumps", "drought and hydropower", "flood risk maps", "climate summit negotiations", "grid expansion"],
        subreddit: "climate",
        symbols: &["ENPH", "NEE"],
    },
    Topic {
        key: "football",
        name: "football",
        keywords: &["football", "soccer", "goal", "match", "league", "champions", "transfer", "striker", "coach", "derby", "cup", "var", "penalty"],
        hashtags: &["ChampionsLeague", "PremierLeague", "TransferNews", "VAR", "WorldCup", "MatchDay"],
        local_hashtags: [&["COYS", "YNWA"], &["LaLiga", "ElClásico"], &["Ligue1", "OMPSG"], &["Bundesliga", "DFBPokal"], &["Brasileirão", "Libertadores"], &["Jリーグ", "サッカー"]],
        sentences: [
            &[
                "That was the best derby I have watched in {n} years. Absolute chaos.",
                "VAR took four minutes to decide a penalty everyone saw live. Fix this.",
                "Transfer deadline day and my club has signed exactly nobody. Again.",
                "The young striker has {n} goals this season and he is only nineteen.",
                "Sacking the coach after six games is not a strategy.",
                "Champions League nights hit different.",
                "Our midfield was overrun from the first minute. Tactical disaster.",
                "The women's league attendance record was broken again today.",
            ],
            &[
                "Qué partidazo. El clásico de este año fue una locura.",
                "El VAR vuelve a ser protagonista y no debería.",
                "Fichaje confirmado: el delantero firma por {n} millones.",
                "El entrenador ha perdido el vestuario, se nota en el campo.",
                "La cantera sigue siendo lo mejor del club.",
            ],
            &[
                "Quel match ! Le stade a vibré jusqu'à la dernière minute.",
                "Encore une polémique arbitrale, la VAR n'a rien réglé.",
                "Le mercato s'emballe, {n} millions pour un attaquant de vingt ans.",
                "L'entraîneur a enfin trouvé le bon milieu de terrain.",
                "Soirée de Ligue des champions, rien de mieux.",
            ],
            &[
                "Was für ein Spiel! Ausgleich in der {n}. Minute.",
                "Der Videobeweis sorgt schon wieder für Diskussionen.",
                "Der Trainer muss gehen, so geht es nicht weiter.",
                "Die Bundesliga ist spannender als seit Jahren.",
                "Der Transfer des Stürmers ist offiziell.",
            ],
            &[
                "Que jogo! Virada nos acréscimos e a torcida enlouqueceu.",
                "O VAR decidiu mais uma vez o clássico.",
                "O atacante já tem {n} gols na temporada.",
                "A Libertadores deste ano está imprevisível.",
                "O técnico precisa mudar o meio-campo urgentemente.",
            ],
            &[
                "今日の試合は最後まで目が離せなかった。",
                "VARの判定に{n}分もかかった。",
                "新しいストライカーが移籍してきた。",
                "Jリーグの観客数が過去最高を記録。",
                "代表戦のメンバーが発表された。",
            ],
        ],
        subjects: &["Champions League knockout rounds", "VAR controversies", "transfer market records", "women's football attendance", "young strikers", "coaching changes", "World Cup qualifiers", "stadium economics", "league title races", "football analytics"],
        subreddit: "soccer",
        symbols: &[],
    },
    Topic {
        key: "space",
        name: "space exploration",
        keywords: &["space", "rocket", "launch", "mars", "moon", "nasa", "orbit", "satellite", "telescope", "starship", "astronaut", "asteroid", "lunar"],
        hashtags: &["Space", "NASA", "Starship", "Artemis", "JWST", "Mars", "Astronomy"],
        local_hashtags: [&["SpaceX", "RocketLaunch"], &["Espacio", "Astronomía"], &["Espace", "Ariane6"], &["Raumfahrt", "ESA"], &["Espaço", "Astronomia"], &["宇宙", "JAXA"]],
        sentences: [
            &[
                "Watched the launch live and the booster landed perfectly. Still feels like magic.",
                "The new telescope images of that galaxy cluster are unreal.",
                "Artemis delays again. The Moon is patient, taxpayers less so.",
                "There are now more than {n} thousand active satellites in orbit. Space traffic is a real problem.",
                "A near-Earth asteroid passes by tonight at a safe distance. Grab binoculars.",
                "Starship flight test went further than the last one. Progress is messy.",
                "Mars sample return is in trouble because of its budget, not its science.",
                "Reusable rockets cut the price per kilogram by a factor of {n}.",
            ],
            &[
                "El lanzamiento de esta noche se ve desde toda la costa.",
                "Las nuevas imágenes del telescopio espacial son espectaculares.",
                "La misión a la Luna se retrasa {n} meses más.",
                "Ya hay demasiados satélites, la astronomía lo nota.",
            ],
            &[
                "Ariane 6 a enfin décollé, un soulagement pour l'Europe spatiale.",
                "Les images du télescope spatial sont à couper le souffle.",
                "Un astéroïde passera à {n} fois la distance Terre-Lune ce soir.",
                "Thomas Pesquet a raison, il faut investir dans l'espace.",
            ],
            &[
                "Der Raketenstart war heute Nacht perfekt zu sehen.",
                "Die ESA plant {n} neue Missionen bis 2030.",
                "Die neuen Bilder des Weltraumteleskops sind unglaublich.",
                "Weltraumschrott wird zum echten Problem.",
            ],
            &[
                "O lançamento do foguete foi um sucesso.",
                "As novas imagens do telescópio espacial são lindas.",
                "Missão à Lua adiada por mais {n} meses.",
                "O Brasil precisa investir mais no programa espacial.",
            ],
            &[
                "H3ロケットの打ち上げが成功した。",
                "宇宙望遠鏡の新しい画像が美しすぎる。",
                "月面探査のミッションが{n}か月延期。",
                "今夜は流星群が見られるかもしれない。",
            ],
        ],
        subjects: &["reusable rockets", "Artemis moon program", "space telescope discoveries", "satellite megaconstellations", "Mars sample return", "near-Earth asteroids", "Starship test flights", "European launchers", "space debris", "exoplanet atmospheres"],
        subreddit: "space",
        symbols: &["RKLB"],
    },
    Topic {
        key: "markets",
        name: "markets and crypto",
        keywords: &["market", "markets", "stocks", "bitcoin", "crypto", "inflation", "rates", "fed", "ethereum", "etf", "earnings", "recession", "economy", "tao"],
        hashtags: &["Bitcoin", "Crypto", "Stocks", "Inflation", "Fed", "Ethereum", "Investing"],
        local_hashtags: [&["WallStreet", "Earnings"], &["Bolsa", "Criptomonedas"], &["Bourse", "CAC40"], &["DAX", "Börse"], &["Ibovespa", "Cripto"], &["日経平均", "仮想通貨"]],
        sentences: [
            &[
                "Bitcoin up {n}% this week and suddenly everyone is a genius again.",
                "The Fed held rates and the market reacted like it was a surprise.",
                "Inflation came in at {n}.1% and my grocery bill disagrees.",
                "Earnings season: beat on revenue, miss on guidance, stock down. Classic.",
                "Spot ETF inflows are the story nobody predicted two years ago.",
                "Not financial advice, but diversification is boring for a reason.",
                "Recession has been 'six months away' for three years now.",
                "Ethereum fees are low enough that I stopped checking them.",
            ],
            &[
                "El bitcoin sube un {n}% y todos vuelven a hablar de cripto.",
                "La inflación baja, pero los precios del súper no.",
                "El banco central mantiene los tipos de interés.",
                "La bolsa cierra en máximos del año.",
            ],
            &[
                "Le CAC 40 termine la semaine en hausse de {n}%.",
                "La BCE maintient ses taux, sans surprise.",
                "Le bitcoin repasse un seuil symbolique.",
                "L'inflation ralentit mais le pouvoir d'achat reste en berne.",
            ],
            &[
                "Der DAX schließt mit einem Plus von {n}%.",
                "Die EZB lässt die Zinsen unverändert.",
                "Bitcoin erreicht ein neues Jahreshoch.",
                "Die Inflation sinkt, die Mieten steigen weiter.",
            ],
            &[
                "O Ibovespa fechou em alta de {n}%.",
                "O Banco Central manteve a Selic.",
                "O bitcoin voltou a subir forte nesta semana.",
                "A inflação de alimentos ainda preocupa.",
            ],
            &[
                "日経平均が{n}年ぶりの高値を更新した。",
                "日銀が金利を据え置いた。",
                "ビットコインがまた急騰している。",
                "円安が止まらない。",
            ],
        ],
        subjects: &["bitcoin spot ETFs", "central bank interest rates", "inflation data", "earnings season", "stablecoin regulation", "emerging market currencies", "tech stock valuations", "decentralized finance", "bond yields", "recession indicators"],
        subreddit: "investing",
        symbols: &["BTC", "ETH", "SPY", "AAPL", "TAO"],
    },
    Topic {
        key: "elections",
        name: "elections and politics",
        keywords: &["election", "elections", "vote", "voting", "poll", "polls", "campaign", "debate", "parliament", "candidate", "ballot", "policy", "government", "democracy"],
        hashtags: &["Election", "Vote", "Democracy", "Debate", "Polls", "Politics"],
        local_hashtags: [&["ElectionNight", "GOTV"], &["Elecciones", "Debate"], &["Élections", "Politique"], &["Bundestagswahl", "Politik"], &["Eleições", "Política"], &["選挙", "政治"]],
        sentences: [
            &[
                "Turnout in the early vote is up {n}% compared to last time.",
                "Last night's debate changed nothing, and both campaigns claim victory.",
                "Polls within the margin of error are not news, they are noise.",
                "Local elections matter more for your daily life than the national ones.",
                "Misinformation about the ballot process is spreading again. Check official sources.",
                "The parliament passed the budget after a {n}-hour session.",
                "Election night coverage is just hours of maps changing colour.",
            ],
            &[
                "La participación sube {n} puntos respecto a las últimas elecciones.",
                "El debate de anoche fue un intercambio de reproches.",
                "Las encuestas dan un empate técnico.",
                "El parlamento aprueba los presupuestos por la mínima.",
            ],
            &[
                "La participation est en hausse de {n} points.",
                "Le débat d'hier soir n'a convaincu personne.",
                "Les sondages restent très serrés.",
                "L'Assemblée adopte le budget après une longue nuit.",
            ],
            &[
                "Die Wahlbeteiligung liegt {n} Punkte über der letzten Wahl.",
                "Das TV-Duell hat keinen klaren Sieger.",
                "Die Umfragen sind knapp wie nie.",
                "Der Bundestag hat den Haushalt beschlossen.",
            ],
            &[
                "A participação aumentou {n} pontos.",
                "O debate de ontem foi morno.",
                "As pesquisas mostram empate técnico.",
                "O Congresso aprovou o orçamento.",
            ],
            &[
                "投票率が前回より{n}ポイント上がった。",
                "昨夜の討論会は見どころがなかった。",
                "世論調査は接戦を示している。",
                "予算案が国会で可決された。",
            ],
        ],
        subjects: &["voter turnout", "televised debates", "opinion polling", "election misinformation", "budget votes", "electoral reform", "campaign finance", "local elections", "coalition negotiations", "postal voting"],
        subreddit: "politics",
        symbols: &[],
    },
    Topic {
        key: "food",
        name: "food and cooking",
        keywords: &["food", "recipe", "cooking", "bread", "coffee", "restaurant", "dinner", "vegan", "pasta", "baking", "kitchen", "chef", "sourdough"],
        hashtags: &["Foodie", "Recipe", "Sourdough", "HomeCooking", "Coffee", "Vegan"],
        local_hashtags: [&["BakeOff", "MealPrep"], &["Recetas", "Tapas"], &["Cuisine", "Boulangerie"], &["Kochen", "Rezept"], &["Receitas", "Churrasco"], &["料理", "ラーメン"]],
        sentences: [
            &[
                "My sourdough starter is {n} days old and finally smells right.",
                "Hot take: most pasta recipes use too much garlic. Fight me.",
                "Coffee prices are up {n}% and I am not ready to talk about it.",
                "Found a tiny restaurant that makes the best dumplings in the city.",
                "Meal prep Sunday: three curries, one soup, zero regrets.",
                "The secret to crispy potatoes is boiling them first. That's it.",
                "Vegan baking has come such a long way.",
            ],
            &[
                "La tortilla de patatas con cebolla, siempre.",
                "He probado {n} recetas de croquetas y esta es la definitiva.",
                "El precio del aceite de oliva sigue por las nubes.",
                "Domingo de paella con la familia.",
            ],
            &[
                "Ma première baguette maison, pas parfaite mais fière.",
                "Le prix du café a pris {n}% en un an.",
                "Meilleure boulangerie du quartier, sans hésiter.",
                "Une bonne ratatouille, ça prend du temps.",
            ],
            &[
                "Mein Sauerteig ist endlich aktiv.",
                "Spätzle selbst gemacht, {n} Minuten und total einfach.",
                "Die Kaffeepreise steigen schon wieder.",
                "Bestes Brot der Stadt, ohne Diskussion.",
            ],
            &[
                "Churrasco de domingo é sagrado.",
                "Testei {n} receitas de pão de queijo, essa é a melhor.",
                "O preço do café disparou.",
                "Feijoada no sábado com a família.",
            ],
            &[
                "近所のラーメン屋が最高だった。",
                "{n}分で作れるカレーのレシピ。",
                "コーヒー豆の値段がまた上がった。",
                "手作りパンに挑戦してみた。",
            ],
        ],
        subjects: &["sourdough baking", "coffee prices", "olive oil prices", "home cooking on a budget", "plant-based recipes", "street food", "restaurant economics", "fermentation", "meal prep", "regional cuisine"],
        subreddit: "Cooking",
        symbols: &["SBUX"],
    },
    Topic {
        key: "gaming",
        name: "video games and tech",
        keywords: &["game", "games", "gaming", "console", "pc", "patch", "release", "indie", "esports", "smartphone", "linux", "browser", "security", "rust", "web", "javascript"],
        hashtags: &["Gaming", "IndieDev", "Esports", "PCGaming", "Linux", "RustLang", "WebDev", "InfoSec"],
        local_hashtags: [&["GameDev", "100DaysOfCode"], &["Videojuegos", "Programación"], &["JeuxVidéo", "DevFR"], &["Gaming", "Programmierung"], &["Games", "Programação"], &["ゲーム", "プログラミング"]],
        sentences: [
            &[
                "This indie game made by {n} people is better than most AAA releases this year.",
                "Day one patch is {n} GB. I bought the disc to avoid exactly this.",
                "Rewrote our backend in Rust and the p99 latency dropped by {n}%.",
                "Reminder: sanitize your inputs. Someone just put a script tag in our signup form.",
                "Linux gaming in 2025 is genuinely good. Most of my library just works.",
                "The esports final had more viewers than the football final in my country.",
                "Browser extensions with full page access are a security nightmare.",
                "Shipping on Friday afternoon builds character.",
            ],
            &[
                "Este juego indie hecho por {n} personas es una joya.",
                "El parche del primer día pesa más que el juego.",
                "La final de esports llenó el estadio.",
                "Aprendiendo Rust y de momento todo bien.",
            ],
            &[
                "Ce jeu indépendant fait par {n} personnes est incroyable.",
                "Encore un patch énorme au lancement.",
                "La finale e-sport a battu des records d'audience.",
                "Le jeu sur Linux marche vraiment bien maintenant.",
            ],
            &[
                "Dieses Indie-Spiel von {n} Leuten ist großartig.",
                "Der Day-One-Patch ist riesig.",
                "Gaming unter Linux funktioniert inzwischen richtig gut.",
                "Wir haben unser Backend in Rust neu geschrieben.",
            ],
            &[
                "Esse jogo indie feito por {n} pessoas é incrível.",
                "O patch do primeiro dia é enorme.",
                "A final de esports lotou o ginásio.",
                "Jogar no Linux ficou muito bom.",
            ],
            &[
                "{n}人で作ったインディーゲームが最高に面白い。",
                "初日パッチの容量が大きすぎる。",
                "eスポーツの決勝戦が盛り上がった。",
                "Rustでバックエンドを書き直した。",
            ],
        ],
        subjects: &["indie game development", "day-one patches", "Linux gaming", "esports viewership", "Rust in production", "browser extension security", "web application security", "handheld consoles", "game preservation", "cross-site scripting"],
        subreddit: "gaming",
        symbols: &["NTDOY", "MSFT"],
    },
];

/// Openers and closers wrap a topic sentence (per language, same order as `LANGS`).
pub const OPENERS: [&[&str]; 6] = [
    &[
        "Hot take:",
        "Thread:",
        "Reminder:",
        "Unpopular opinion:",
        "Breaking:",
        "Big news:",
        "Quick thought:",
        "PSA:",
        "Honestly,",
        "Update:",
    ],
    &[
        "Opinión:",
        "Hilo:",
        "Última hora:",
        "Recordatorio:",
        "Ojo:",
        "Sinceramente,",
    ],
    &[
        "Avis perso :",
        "Thread :",
        "Dernière minute :",
        "Rappel :",
        "Franchement,",
        "Info :",
    ],
    &[
        "Meinung:",
        "Thread:",
        "Eilmeldung:",
        "Erinnerung:",
        "Ehrlich gesagt,",
        "Kurz notiert:",
    ],
    &[
        "Opinião:",
        "Fio:",
        "Urgente:",
        "Lembrete:",
        "Sinceramente,",
        "Atenção:",
    ],
    &["速報：", "正直、", "メモ：", "個人的な意見：", "お知らせ："],
];

pub const CLOSERS: [&[&str]; 6] = [
    &[
        "What do you think?",
        "Thoughts?",
        "More soon.",
        "Worth a read.",
        "Wild times.",
        "Bookmark this.",
        "Change my mind.",
        "🔥",
        "👀",
        "😅",
    ],
    &["¿Qué opináis?", "Más pronto.", "Vaya tela.", "🔥", "👀"],
    &[
        "Vous en pensez quoi ?",
        "À suivre.",
        "Incroyable.",
        "🔥",
        "👀",
    ],
    &["Was meint ihr?", "Mehr dazu bald.", "Wahnsinn.", "🔥", "👀"],
    &[
        "O que vocês acham?",
        "Mais em breve.",
        "Que loucura.",
        "🔥",
        "👀",
    ],
    &["どう思う？", "続報を待ちたい。", "すごい。", "🔥", "👀"],
];

/// Reply and quote lead-ins per language.
pub const REPLIES: [&[&str]; 6] = [
    &[
        "Totally agree.",
        "Source?",
        "Not sure about that.",
        "This is the best take I've seen today.",
        "Came here to say this.",
        "Respectfully, no.",
        "Exactly this.",
        "Can you share the data?",
        "Saving this thread.",
        "Underrated point.",
    ],
    &[
        "Totalmente de acuerdo.",
        "¿Fuente?",
        "No estoy tan seguro.",
        "Exacto.",
        "Muy buen hilo.",
    ],
    &[
        "Tout à fait d'accord.",
        "Source ?",
        "Pas si sûr.",
        "Exactement.",
        "Excellent thread.",
    ],
    &[
        "Volle Zustimmung.",
        "Quelle?",
        "Da bin ich nicht sicher.",
        "Genau so.",
        "Guter Thread.",
    ],
    &[
        "Concordo totalmente.",
        "Fonte?",
        "Não tenho certeza.",
        "Exatamente.",
        "Ótimo fio.",
    ],
    &[
        "完全に同意。",
        "ソースは？",
        "それはどうかな。",
        "まさにそれ。",
        "いいスレッド。",
    ],
];

pub const QUOTE_LEADS: [&[&str]; 6] = [
    &[
        "This. 👇",
        "Worth reading:",
        "Strong disagree.",
        "Context matters here:",
        "Good thread on this.",
        "Interesting take:",
    ],
    &["Esto. 👇", "Vale la pena leerlo:", "No estoy de acuerdo."],
    &["Ça. 👇", "À lire :", "Pas d'accord."],
    &["Das hier. 👇", "Lesenswert:", "Sehe ich anders."],
    &["Isso. 👇", "Vale a leitura:", "Discordo."],
    &["これ。👇", "読む価値あり：", "同意できない。"],
];

/// Rare texts that look like markup, as real posts sometimes do. Clients must render them inert.
pub const HOSTILE_SNIPPETS: &[&str] = &[
    "Our WAF logs today: <script>alert('pwned')</script> lol",
    "Why does my bio render as <img src=x onerror=alert(1)> on that site?",
    "Found this in a phishing mail: <a href=\"javascript:alert(document.cookie)\">claim prize</a>",
    "Testing if this app escapes HTML: <b>bold</b> <iframe src=\"https://example.com\"></iframe>",
    "<svg onload=alert(1)> is still the shortest XSS payload I know",
];

pub const FIRST_NAMES: [&[&str]; 6] = [
    &[
        "James", "Emma", "Olivia", "Liam", "Noah", "Ava", "Mia", "Ethan", "Grace", "Chloe", "Ryan",
        "Zoe", "Priya", "Arjun", "Sam", "Alex", "Jordan", "Taylor", "Maya", "Leo", "Nora", "Owen",
        "Ruby", "Kai",
    ],
    &[
        "Lucía", "Mateo", "Sofía", "Hugo", "Martina", "Pablo", "Valeria", "Diego", "Carmen",
        "Javier", "Elena", "Andrés",
    ],
    &[
        "Camille", "Louis", "Léa", "Hugo", "Chloé", "Lucas", "Manon", "Jules", "Inès", "Théo",
        "Claire", "Antoine",
    ],
    &[
        "Lukas", "Mia", "Leon", "Hannah", "Finn", "Lena", "Jonas", "Emilia", "Paul", "Sophie",
        "Felix", "Marie",
    ],
    &[
        "João", "Ana", "Pedro", "Beatriz", "Lucas", "Mariana", "Gabriel", "Júlia", "Rafael",
        "Larissa", "Thiago", "Camila",
    ],
    &[
        "Haruto", "Yui", "Sota", "Hina", "Ren", "Aoi", "Yuto", "Sakura", "Riku", "Mio", "Kaito",
        "Yuna",
    ],
];

pub const LAST_NAMES: [&[&str]; 6] = [
    &[
        "Smith", "Johnson", "Brown", "Taylor", "Wilson", "Clarke", "Patel", "Nguyen", "Khan",
        "Walker", "Hughes", "Reed", "Okafor", "Murphy", "Lee", "Rivera",
    ],
    &[
        "García",
        "Martínez",
        "López",
        "Sánchez",
        "Romero",
        "Navarro",
        "Torres",
        "Ruiz",
    ],
    &[
        "Martin", "Bernard", "Dubois", "Moreau", "Laurent", "Lefèvre", "Roux", "Fournier",
    ],
    &[
        "Müller",
        "Schmidt",
        "Schneider",
        "Fischer",
        "Weber",
        "Becker",
        "Wagner",
        "Hoffmann",
    ],
    &[
        "Silva", "Santos", "Oliveira", "Souza", "Costa", "Pereira", "Almeida", "Ferreira",
    ],
    &[
        "Sato",
        "Suzuki",
        "Takahashi",
        "Tanaka",
        "Watanabe",
        "Ito",
        "Yamamoto",
        "Nakamura",
    ],
];

/// Words that make handles look like handles.
pub const HANDLE_WORDS: &[&str] = &[
    "news", "daily", "writes", "codes", "talks", "hq", "lab", "fan", "watch", "notes", "data",
    "pod", "live", "insider", "desk", "builds",
];

/// Organisation accounts: these are the legacy-verified ones.
pub const ORGS: &[(&str, &str, usize)] = &[
    ("The Daily Ledger", "dailyledger", 0),
    ("Orbit Weekly", "orbitweekly", 0),
    ("Climate Desk", "climatedesk", 0),
    ("Pitchside", "pitchside", 0),
    ("Market Wire", "marketwire", 0),
    ("Civic Pulse", "civicpulse", 0),
    ("Open Model Lab", "openmodellab", 0),
    ("Kitchen Table", "kitchentable", 0),
    ("Patch Notes", "patchnotes", 0),
    ("El Diario Abierto", "diarioabierto", 1),
    ("Le Fil Info", "lefilinfo", 2),
    ("Der Tagesblick", "tagesblick", 3),
    ("Jornal Aberto", "jornalaberto", 4),
    ("ニュース速報ジャパン", "newsflashjp", 5),
];

/// Countries per language, with their WOEID (Where On Earth ID) and location labels.
pub struct Country {
    pub woeid: i64,
    pub name: &'static str,
    pub lang: usize,
    pub cities: &'static [&'static str],
}

pub const COUNTRIES: &[Country] = &[
    Country {
        woeid: 23424977,
        name: "United States",
        lang: 0,
        cities: &[
            "New York, NY",
            "San Francisco, CA",
            "Austin, TX",
            "Chicago, IL",
            "Seattle, WA",
        ],
    },
    Country {
        woeid: 23424975,
        name: "United Kingdom",
        lang: 0,
        cities: &[
            "London, England",
            "Manchester, England",
            "Edinburgh, Scotland",
        ],
    },
    Country {
        woeid: 23424775,
        name: "Canada",
        lang: 0,
        cities: &["Toronto, Ontario", "Vancouver, BC"],
    },
    Country {
        woeid: 23424748,
        name: "Australia",
        lang: 0,
        cities: &["Sydney, NSW", "Melbourne, VIC"],
    },
    Country {
        woeid: 23424848,
        name: "India",
        lang: 0,
        cities: &["Bengaluru, India", "Mumbai, India", "Delhi, India"],
    },
    Country {
        woeid: 23424950,
        name: "Spain",
        lang: 1,
        cities: &["Madrid, España", "Barcelona, España", "Sevilla, España"],
    },
    Country {
        woeid: 23424900,
        name: "Mexico",
        lang: 1,
        cities: &["Ciudad de México", "Guadalajara, Jalisco"],
    },
    Country {
        woeid: 23424747,
        name: "Argentina",
        lang: 1,
        cities: &["Buenos Aires, Argentina", "Córdoba, Argentina"],
    },
    Country {
        woeid: 23424819,
        name: "France",
        lang: 2,
        cities: &["Paris, France", "Lyon, France", "Marseille, France"],
    },
    Country {
        woeid: 23424829,
        name: "Germany",
        lang: 3,
        cities: &[
            "Berlin, Deutschland",
            "München, Deutschland",
            "Hamburg, Deutschland",
        ],
    },
    Country {
        woeid: 23424768,
        name: "Brazil",
        lang: 4,
        cities: &[
            "São Paulo, Brasil",
            "Rio de Janeiro, Brasil",
            "Recife, Brasil",
        ],
    },
    Country {
        woeid: 23424925,
        name: "Portugal",
        lang: 4,
        cities: &["Lisboa, Portugal", "Porto, Portugal"],
    },
    Country {
        woeid: 23424856,
        name: "Japan",
        lang: 5,
        cities: &["東京", "大阪", "福岡"],
    },
];

/// News sites per language for the synthetic web.
pub const NEWS_SITES: &[&str] = &[
    "www.dailyledger.com",
    "www.orbitweekly.org",
    "www.climatedesk.net",
    "www.pitchside.co.uk",
    "www.marketwire.io",
    "www.civicpulse.org",
    "blog.openmodellab.ai",
    "www.kitchentable.blog",
    "www.patchnotes.gg",
    "www.techreview-daily.com",
];

/// The news site of each topic (index into `NEWS_SITES`, same order as `TOPICS`); the other
/// pages of a topic go to the general sites 0 and 9.
pub const TOPIC_SITES: [usize; 8] = [6, 2, 3, 1, 4, 5, 7, 8];

pub const WEB_TITLE_TEMPLATES: &[&str] = &[
    "{Subject}: what we know so far",
    "{Subject}: how the picture is changing",
    "The state of {subject}, explained",
    "Five things to know about {subject}",
    "Why experts are watching {subject} closely",
    "A new milestone for {subject}",
];

pub const YOUTUBE_TITLE_TEMPLATES: &[&str] = &[
    "{Subject} explained in 10 minutes",
    "I tried to understand {subject} so you don't have to",
    "{Subject}: the full documentary",
    "Live discussion: the future of {subject}",
];

pub const ARXIV_TITLE_TEMPLATES: &[&str] = &[
    "A Survey of {Subject}",
    "Measuring {Subject}: Data, Methods and Open Problems",
    "Towards Robust Models of {Subject}",
    "{Subject} at Scale: An Empirical Study",
];

pub const REDDIT_TITLE_TEMPLATES: &[&str] = &[
    "What is everyone's take on {subject}?",
    "ELI5: {subject}",
    "I spent a year following {subject}. AMA",
    "Is it just me or is the coverage of {subject} getting worse?",
];

pub const HN_TITLE_TEMPLATES: &[&str] = &[
    "Show HN: An open dataset on {subject}",
    "Ask HN: Who is working on {subject}?",
    "{Subject} (2025)",
    "The hidden costs of {subject}",
];
