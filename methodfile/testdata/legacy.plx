# The older .plx spelling: definition instead of description,
# prompt_template instead of prompt, no main_pipe (the caller names the
# pipe to run: --pipe make_card), an empty [pipe] header, literal strings.
domain     = "legacy"
definition = "Greeting cards, the old way"

[concept]
Greeting = "A greeting"
Card     = { definition = "A card", refines = "Greeting" }

[pipe]
[pipe.make_card]
type       = "PipeSequence"
definition = "Greet, then frame"
inputs     = { name = "Text" }
output     = "Card"
steps      = [{ pipe = "greet", result = "greeting" }, { pipe = "frame" }]

[pipe.greet]
type            = "PipeLLM"
definition      = "Write a greeting"
inputs          = { name = "Text" }
output          = "Greeting"
model           = "local-model-1"
prompt_template = 'Write a greeting for $name, no more than {{ 10 }} words.'

[pipe.frame]
type       = "PipeCompose"
definition = "Frame the greeting"
inputs     = { greeting = "Greeting" }
output     = "Card"
template   = '''
*** {{ greeting.text }} ***'''
